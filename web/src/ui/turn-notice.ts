// Telling a player that it is their decision while the tab may be in the background: the
// document's title always; a short tone and a browser notification when the player switched
// them on (both off by default, remembered in localStorage).
import { h } from "./dom";

const SOUND_KEY = "carc.turn.sound";
const NOTIFY_KEY = "carc.turn.notify";
export const YOUR_TURN_MARK = "● Your turn — ";

export interface TurnSettings {
  readonly sound: boolean;
  readonly notify: boolean;
}

// A game page's title: the game's name first, so that a player with several games open tells
// the tabs apart, then the site's; marked in front while the decision is the player's.
export function turnTitle(siteTitle: string, gameName: string, yourTurn: boolean): string {
  const title = `${gameName} — ${siteTitle}`;
  return yourTurn ? `${YOUR_TURN_MARK}${title}` : title;
}

export function loadTurnSettings(storage: Pick<Storage, "getItem">): TurnSettings {
  return { sound: storage.getItem(SOUND_KEY) === "1", notify: storage.getItem(NOTIFY_KEY) === "1" };
}

export function saveTurnSettings(storage: Pick<Storage, "setItem">, settings: TurnSettings): void {
  storage.setItem(SOUND_KEY, settings.sound ? "1" : "0");
  storage.setItem(NOTIFY_KEY, settings.notify ? "1" : "0");
}

// A short, soft two-note tone made on the spot: no sound file to load.
function playTone(): void {
  const Context = window.AudioContext as typeof AudioContext | undefined;
  if (Context === undefined) return;
  const audio = new Context();
  const gain = audio.createGain();
  gain.connect(audio.destination);
  const start = audio.currentTime;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
  for (const [i, frequency] of [660, 880].entries()) {
    const tone = audio.createOscillator();
    tone.frequency.value = frequency;
    tone.connect(gain);
    tone.start(start + i * 0.12);
    tone.stop(start + 0.35);
  }
  window.setTimeout(() => void audio.close(), 600);
}

function notificationsAllowed(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

export class TurnNotice {
  private readonly baseTitle = document.title;
  private yourTurn = false;
  private settings = loadTurnSettings(localStorage);

  // Called on every render: the title follows the decision; the tone and the notification come
  // once, when the decision becomes the player's.
  update(yourTurn: boolean, gameName: string): void {
    document.title = turnTitle(this.baseTitle, gameName, yourTurn);
    const began = yourTurn && !this.yourTurn;
    this.yourTurn = yourTurn;
    if (!began) return;
    if (this.settings.sound) playTone();
    if (this.settings.notify && notificationsAllowed() && document.hidden) {
      new Notification("Your turn", { body: `${gameName}: it is your decision.`, tag: "carc-turn" });
    }
  }

  destroy(): void {
    document.title = this.baseTitle;
  }

  // The settings area: two switches, kept by the page across renders.
  readonly element = this.drawSettings();

  private drawSettings(): HTMLElement {
    const sound = this.checkbox("turn-sound", "Play a sound on my turn", this.settings.sound, (on) => this.set({ ...this.settings, sound: on }));
    const notify = this.checkbox("turn-notify", "Notify me on my turn (when this tab is in the background)", this.settings.notify, (on) => {
      this.set({ ...this.settings, notify: on });
      if (on && typeof Notification !== "undefined" && Notification.permission === "default") void Notification.requestPermission();
    });
    return h("details", { class: "turn-settings" }, h("summary", {}, "Settings"), sound, notify);
  }

  private checkbox(id: string, label: string, checked: boolean, change: (on: boolean) => void): HTMLElement {
    const box = h("input", { type: "checkbox", id, checked });
    box.addEventListener("change", () => change(box.checked));
    return h("div", {}, box, " ", h("label", { for: id }, label));
  }

  private set(settings: TurnSettings): void {
    this.settings = settings;
    saveTurnSettings(localStorage, settings);
  }
}
