// One WebSocket to one server (docs/protocol.md section 1): the site's, or a shard's behind the
// proxy (src/net/connections.ts keeps one per address and shares it between pages).
//
// What it promises: requests get ids from a counter and a promise of the reply carrying that id
// (which may be an Error: callers look at its case); every server message, replies included, is
// also handed to the listeners, so a page can treat a Snapshot the same whether it answers its
// own request or was pushed. A lost connection is retried with exponential backoff (0.5 s
// doubling to 8 s), always at the same address, so a game's shard stays its shard; after each new
// Welcome every held seat is resumed and every reconnect hook runs, because the server forgets
// which games a connection was in. The last Welcome is kept: it lists the rule sets the server
// hosts, which the lobby offers.
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";

import {
  ClientMessageSchema,
  ServerMessageSchema,
  type ServerMessage,
  type Welcome,
} from "../gen/carcassonne/server/v2/server_pb";

// The init shape, so callers write plain objects and create() fills in the message types.
export type RequestBody = NonNullable<MessageInitShape<typeof ClientMessageSchema>["body"]>;
export type ConnectionStatus = "connecting" | "open" | "reconnecting" | "closed";
type Listener<T> = (value: T) => void;

// A seat this client holds: resumed on every reconnect from the last sequence the page saw.
export interface HeldSeat {
  readonly token: Uint8Array;
  readonly lastSeen: () => bigint;
}

interface Pending {
  readonly resolve: (m: ServerMessage) => void;
  readonly reject: (e: Error) => void;
}

const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;
const CLIENT_NAME = "carc-web 0.2";

export class Connection {
  private socket: WebSocket | null = null;
  private nextId = 1n;
  private readonly pending = new Map<bigint, Pending>();
  // Requests made before Welcome wait here; the server refuses anything before Hello.
  private readonly queue: Uint8Array[] = [];
  private welcomed = false;
  private backoffMs = MIN_BACKOFF_MS;
  private everOpened = false;
  private statusValue: ConnectionStatus = "connecting";
  private readonly messageListeners = new Set<Listener<ServerMessage>>();
  private readonly statusListeners = new Set<Listener<ConnectionStatus>>();
  private readonly welcomeListeners = new Set<Listener<Welcome>>();
  private welcomeValue: Welcome | null = null;
  private readonly reconnectHooks = new Set<() => void>();
  private readonly seats = new Map<string, HeldSeat>();

  constructor(private readonly url: string) {
    this.open();
  }

  get status(): ConnectionStatus {
    return this.statusValue;
  }

  request(body: RequestBody): Promise<ServerMessage> {
    const id = this.nextId++;
    const bytes = toBinary(ClientMessageSchema, create(ClientMessageSchema, { requestId: id, body }));
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.welcomed && this.socket !== null) this.socket.send(bytes);
      else this.queue.push(bytes);
    });
  }

  onMessage(listener: Listener<ServerMessage>): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onStatus(listener: Listener<ConnectionStatus>): () => void {
    this.statusListeners.add(listener);
    listener(this.statusValue);
    return () => this.statusListeners.delete(listener);
  }

  // The server's last Welcome: at once if it has come, and again after each reconnect.
  onWelcome(listener: Listener<Welcome>): () => void {
    this.welcomeListeners.add(listener);
    if (this.welcomeValue !== null) listener(this.welcomeValue);
    return () => this.welcomeListeners.delete(listener);
  }

  // Runs after every reconnect (not the first connect): spectators watch again this way.
  onReconnect(hook: () => void): () => void {
    this.reconnectHooks.add(hook);
    return () => this.reconnectHooks.delete(hook);
  }

  holdSeat(gameId: string, seat: HeldSeat): void {
    this.seats.set(gameId, seat);
  }

  releaseSeat(gameId: string): void {
    this.seats.delete(gameId);
  }

  private setStatus(s: ConnectionStatus): void {
    this.statusValue = s;
    for (const l of this.statusListeners) l(s);
  }

  private open(): void {
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.socket = ws;
    ws.onopen = () => this.sendHello(ws);
    ws.onmessage = (e: MessageEvent) => this.receive(e.data);
    ws.onclose = () => this.lost(ws);
  }

  private sendHello(ws: WebSocket): void {
    const hello = create(ClientMessageSchema, {
      requestId: 0n,
      body: { case: "hello", value: { protocolVersion: 2, client: CLIENT_NAME } },
    });
    ws.send(toBinary(ClientMessageSchema, hello));
  }

  private receive(data: unknown): void {
    if (!(data instanceof ArrayBuffer)) return; // the server sends binary frames only
    let msg: ServerMessage;
    try {
      msg = fromBinary(ServerMessageSchema, new Uint8Array(data));
    } catch {
      return; // a frame we cannot read changes nothing; the hash checks catch lost state
    }
    if (msg.body.case === "welcome") {
      this.onWelcomeMessage(msg.body.value);
      return;
    }
    const waiting = this.pending.get(msg.requestId);
    if (msg.requestId !== 0n && waiting !== undefined) {
      this.pending.delete(msg.requestId);
      waiting.resolve(msg);
    }
    for (const l of this.messageListeners) l(msg);
  }

  private onWelcomeMessage(welcome: Welcome): void {
    this.welcomeValue = welcome;
    for (const l of this.welcomeListeners) l(welcome);
    const reconnected = this.everOpened;
    this.welcomed = true;
    this.everOpened = true;
    this.backoffMs = MIN_BACKOFF_MS;
    this.setStatus("open");
    if (reconnected) this.resumeAll();
    for (const bytes of this.queue.splice(0)) this.socket?.send(bytes);
  }

  private resumeAll(): void {
    for (const [gameId, seat] of this.seats) {
      const body: RequestBody = {
        case: "resume",
        value: { gameId, seatToken: seat.token, lastSeenSequence: seat.lastSeen() },
      };
      void this.request(body);
    }
    for (const hook of this.reconnectHooks) hook();
  }

  // Replies to requests sent on a lost socket will never come: their callers hear so at once.
  private lost(ws: WebSocket): void {
    if (this.socket !== ws) return;
    this.socket = null;
    this.welcomed = false;
    for (const p of this.pending.values()) p.reject(new Error("the connection was lost"));
    this.pending.clear();
    this.setStatus("reconnecting");
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    window.setTimeout(() => this.open(), delay);
  }
}
