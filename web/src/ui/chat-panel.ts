// The game page's chat (docs/protocol.md section 13): its lines (name, time, text), a field to
// write one with its byte counter and the limits, Send (off for a spectator where the game does not
// let spectators write), and a mute toggle per other player. Built once per page and updated in
// place, so what is being typed survives every redraw. Screen readers hear new lines of others
// through one polite live region, gathered over two seconds ("3 new chat messages; the last from
// Bob: …"), never line by line; the list itself is not live.
import type { ChatMessage } from "../gen/carcassonne/server/v2/server_pb";
import { CHAT_MAX_BYTES, CHAT_RATE_WORDS, chatTextProblem, chatTime, utf8Bytes, type ChatLog } from "../match/chat";
import { h } from "./dom";

const ANNOUNCE_AFTER_MS = 2000;

export interface ChatHost {
  // Sends a line; the refusal in words, or null once the server took it.
  send(text: string): Promise<string | null>;
  mute(seat: number, muted: boolean): void;
}

// A seat that may write, for its mute toggle.
export interface Chatter {
  readonly seat: number;
  readonly name: string;
}

export interface ChatContext {
  readonly chatters: readonly Chatter[]; // the other seats whose lines may be muted
  readonly yourSeat: number | null;
  readonly canWrite: boolean;
  readonly whyNot: string; // why not, when !canWrite
}

let panels = 0;

export class ChatPanel {
  readonly element: HTMLElement;
  private readonly list = h("ol", { class: "chat-lines", "aria-label": "Chat messages" });
  private readonly announcer = h("div", { class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
  private readonly input: HTMLInputElement;
  private readonly counter = h("span", { class: "chat-counter" });
  private readonly sendButton = h("button", { type: "submit", class: "primary" }, "Send");
  private readonly note = h("p", { class: "chat-note" });
  private readonly errorBox = h("p", { class: "error", role: "alert" });
  private readonly mutes = h("div", { class: "chat-mutes" });
  private shown = new Set<bigint>();
  private pending: ChatMessage[] = [];
  private announceTimer = 0;
  private sending = false;
  private canWrite = false;

  constructor(private readonly host: ChatHost) {
    const id = `chat-${++panels}`;
    this.input = h("input", { type: "text", id: `${id}-text`, autocomplete: "off", "aria-describedby": `${id}-limits` });
    this.input.addEventListener("input", () => this.updateCounter());
    const limits = h("span", { id: `${id}-limits`, class: "hint" }, `Up to ${CHAT_MAX_BYTES} bytes, ${CHAT_RATE_WORDS}.`);
    const form = h(
      "form",
      { class: "chat-form" },
      h("label", { for: this.input.id }, "Message"),
      this.input,
      this.sendButton,
      this.counter,
      limits,
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.submit();
    });
    this.errorBox.hidden = true;
    this.element = h("section", { class: "chat", "aria-label": "Chat" }, h("h3", {}, "Chat"), this.list, this.announcer, form, this.note, this.errorBox, this.mutes);
    this.updateCounter();
  }

  destroy(): void {
    window.clearTimeout(this.announceTimer);
  }

  update(log: ChatLog, ctx: ChatContext): void {
    this.drawLines(log, ctx.yourSeat);
    this.canWrite = ctx.canWrite;
    this.input.disabled = !ctx.canWrite;
    this.note.textContent = ctx.canWrite ? "" : ctx.whyNot;
    this.note.hidden = ctx.canWrite;
    this.updateCounter();
    this.drawMutes(log, ctx.chatters);
  }

  // Lines are appended as they come; the whole list is drawn again only when one left it (a mute).
  private drawLines(log: ChatLog, yourSeat: number | null): void {
    const lines = log.lines();
    const stillShown = lines.filter((l) => this.shown.has(l.number)).length === this.shown.size;
    const lastShown = [...this.shown].reduce((a, b) => (b > a ? b : a), 0n);
    const appendOnly = stillShown && lines.every((l) => this.shown.has(l.number) || l.number > lastShown);
    const nearBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    const firstDraw = this.shown.size === 0;
    const fresh = appendOnly ? lines.filter((l) => !this.shown.has(l.number)) : lines;
    if (!appendOnly || firstDraw) this.list.replaceChildren();
    for (const line of fresh) this.list.append(chatLine(line));
    if (appendOnly && !firstDraw) this.queueAnnouncement(fresh.filter((l) => l.seat === undefined || l.seat !== yourSeat));
    this.shown = new Set(lines.map((l) => l.number));
    if (nearBottom || firstDraw) this.list.scrollTop = this.list.scrollHeight;
    if (lines.length === 0) this.list.replaceChildren(h("li", { class: "chat-empty" }, "No messages yet."));
  }

  private queueAnnouncement(lines: readonly ChatMessage[]): void {
    if (lines.length === 0) return;
    this.pending.push(...lines);
    if (this.announceTimer !== 0) return;
    this.announceTimer = window.setTimeout(() => {
      this.announceTimer = 0;
      const last = this.pending[this.pending.length - 1];
      const n = this.pending.length;
      this.pending = [];
      if (last === undefined) return;
      this.announcer.textContent = n === 1 ? `${last.name} says: ${last.text}` : `${n} new chat messages; the last from ${last.name}: ${last.text}`;
    }, ANNOUNCE_AFTER_MS);
  }

  private drawMutes(log: ChatLog, chatters: readonly Chatter[]): void {
    const toggles = chatters.map(({ seat, name }) => {
      const muted = log.isMuted(seat);
      const b = h("button", { type: "button", "aria-pressed": muted ? "true" : "false", "data-mute-seat": seat }, muted ? `Unmute ${name}` : `Mute ${name}`);
      b.addEventListener("click", () => this.host.mute(seat, !muted));
      return b;
    });
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset["muteSeat"] : undefined;
    this.mutes.replaceChildren(...(toggles.length > 0 ? [h("span", {}, "Mute: "), ...toggles] : []));
    if (focused !== undefined) this.mutes.querySelector<HTMLElement>(`[data-mute-seat="${focused}"]`)?.focus();
  }

  private updateCounter(): void {
    const bytes = utf8Bytes(this.input.value.trim());
    this.counter.textContent = `${bytes} / ${CHAT_MAX_BYTES}`;
    this.counter.classList.toggle("over", bytes > CHAT_MAX_BYTES);
    this.sendButton.disabled = !this.canWrite || this.sending || bytes === 0 || bytes > CHAT_MAX_BYTES;
  }

  private showError(text: string | null): void {
    this.errorBox.textContent = text ?? "";
    this.errorBox.hidden = text === null;
  }

  private async submit(): Promise<void> {
    if (!this.canWrite || this.sending) return;
    const text = this.input.value.trim();
    const problem = chatTextProblem(text);
    if (problem !== null) {
      this.showError(problem);
      return;
    }
    this.sending = true;
    this.updateCounter();
    const refused = await this.host.send(text);
    this.sending = false;
    this.showError(refused);
    if (refused === null) this.input.value = "";
    this.updateCounter();
  }
}

// A seat's line goes by the seat's name; a spectator's says it is one.
function chatSpeaker(line: ChatMessage): string {
  if (line.seat !== undefined) return line.name !== "" ? line.name : `Seat ${line.seat + 1}`;
  return line.name === "" || line.name === "spectator" ? "Spectator" : `${line.name} (watching)`;
}

export function chatLine(line: ChatMessage): HTMLElement {
  const who = chatSpeaker(line);
  return h(
    "li",
    { "data-number": String(line.number) },
    h("span", { class: "chat-name" }, who),
    " ",
    h("time", { datetime: new Date(Number(line.timeMs)).toISOString() }, chatTime(line.timeMs)),
    " ",
    h("span", { class: "chat-text" }, line.text),
  );
}
