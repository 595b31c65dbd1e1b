// The game page's clocks and stand-ins (docs/protocol.md section 15): every seat's clock, the
// running one counting down from the last Clocks message's arrival (src/match/clocks.ts), and a
// "stand-in" badge on each seat a stand-in bot plays, for everybody; for the player whose own seat
// a stand-in plays, a banner with "Take my seat back". Built once per page and updated in place:
// its own timer redraws only the running clock's time, never the board.
import type { GameInfo } from "../gen/carcassonne/server/v2/server_pb";
import { botWord } from "../match/create-game";
import { formatClock, hasClock, msUntilNextTick, remainingAt, timeControlWords, type HeldClocks } from "../match/clocks";
import { button, h } from "./dom";
import { playerName } from "./players";

export interface ClockContext {
  readonly info: GameInfo | null;
  readonly clocks: HeldClocks | null;
  readonly names: readonly string[];
  readonly yourSeat: number | null;
  readonly over: boolean; // a game that is over shows its clocks as they stopped
}

export class ClockView {
  // The seats with their clocks and badges; hidden in a game without a clock or a grace period
  // (where no stand-in comes).
  readonly element = h("section", { class: "seat-clocks", "aria-label": "Clocks" });
  // For the player whose seat a stand-in plays.
  readonly banner = h("div", { class: "stand-in-banner", role: "alert" });
  private context: ClockContext = { info: null, clocks: null, names: [], yourSeat: null, over: false };
  private readonly times = new Map<number, HTMLElement>();
  private timer = 0;

  constructor(private readonly takeSeatBack: () => void) {
    this.banner.hidden = true;
  }

  update(context: ClockContext): void {
    this.context = context;
    this.drawSeats();
    this.drawBanner();
    this.tick();
  }

  destroy(): void {
    window.clearTimeout(this.timer);
  }

  private drawSeats(): void {
    const { info, clocks, names } = this.context;
    const seats = info?.seat ?? [];
    const clocked = hasClock(info?.timeControl) || clocks !== null;
    const standIns = seats.some((s) => s.standIn);
    const graceful = (info?.timeControl?.graceMs ?? 0n) > 0n; // stand-ins may come
    this.times.clear();
    this.element.hidden = !clocked && !standIns && !graceful;
    if (this.element.hidden) {
      this.element.replaceChildren();
      return;
    }
    const rows = seats.map((seat) => {
      const time = h("span", { class: "clock-time" });
      if (clocked) this.times.set(seat.seat, time);
      const badge = seat.standIn ? h("span", { class: "stand-in-badge", title: `${botWord(seat.bot || "greedy")} plays this seat while its player is away` }, "stand-in") : null;
      return h(
        "li",
        { "data-seat": seat.seat, "data-stand-in": seat.standIn ? "true" : "false" },
        h("span", { class: "clock-name" }, playerName(names, seat.seat)),
        " ",
        badge,
        clocked ? time : null,
      );
    });
    this.element.replaceChildren(
      h("h3", {}, clocked ? "Clocks" : "Seats"),
      h("p", { class: "time-control-words" }, timeControlWords(info?.timeControl)),
      h("ol", { class: "clock-list" }, ...rows),
    );
  }

  private drawBanner(): void {
    const { info, yourSeat, over } = this.context;
    const seat = yourSeat === null ? undefined : info?.seat[yourSeat];
    const show = seat?.standIn === true && !over;
    this.banner.hidden = !show;
    if (!show) {
      this.banner.replaceChildren();
      return;
    }
    this.banner.replaceChildren(
      h("p", {}, `A stand-in (${botWord(seat.bot || "greedy")}) plays your seat: you were away too long or out of time.`),
      button("Take my seat back", () => this.takeSeatBack(), { class: "primary" }),
    );
  }

  // The times as they are now; then a timer for the running clock's next change of text.
  private tick(): void {
    window.clearTimeout(this.timer);
    const clocks = this.context.clocks;
    const now = performance.now();
    for (const [seat, element] of this.times) {
      const left = clocks === null ? null : remainingAt(clocks, seat, now);
      const running = clocks?.running === seat && !this.context.over;
      element.textContent = left === null ? "–" : formatClock(left);
      element.dataset["running"] = running ? "true" : "false";
      element.parentElement?.classList.toggle("running", running);
    }
    if (clocks === null || this.context.over) return;
    const wait = msUntilNextTick(clocks, now);
    if (wait !== null) this.timer = window.setTimeout(() => this.tick(), wait + 5);
  }
}
