// The player's chosen name, remembered between visits so that joining needs no typing. Names are
// free text shown to others; the server is the judge of what it accepts.
const KEY = "carc.name";
const MAX_LENGTH = 40;
// The server's limits for names, in bytes of UTF-8 (docs/protocol.md section 2.7).
export const PLAYER_NAME_BYTES = 64;
export const GAME_NAME_BYTES = 64;

// `text` cut to whole characters that fit in `maxBytes` of UTF-8.
export function fitUtf8(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  let bytes = 0;
  let out = "";
  for (const char of text) {
    bytes += encoder.encode(char).length;
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

export function playerNameSetting(): string {
  return fitUtf8((localStorage.getItem(KEY) ?? "").slice(0, MAX_LENGTH), PLAYER_NAME_BYTES);
}

export function setPlayerNameSetting(name: string): void {
  localStorage.setItem(KEY, fitUtf8(name.trim().slice(0, MAX_LENGTH), PLAYER_NAME_BYTES));
}

export function nameInput(label = "Your name"): HTMLInputElement {
  const input = document.createElement("input");
  input.type = "text";
  input.maxLength = MAX_LENGTH;
  input.placeholder = "your name";
  input.value = playerNameSetting();
  input.setAttribute("aria-label", label);
  input.addEventListener("change", () => setPlayerNameSetting(input.value));
  return input;
}
