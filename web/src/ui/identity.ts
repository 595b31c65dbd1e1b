// The player's chosen name, remembered between visits so that joining needs no typing. Names are
// free text shown to others; the server is the judge of what it accepts.
const KEY = "carc.name";
const MAX_LENGTH = 40;

export function playerNameSetting(): string {
  return (localStorage.getItem(KEY) ?? "").slice(0, MAX_LENGTH);
}

export function setPlayerNameSetting(name: string): void {
  localStorage.setItem(KEY, name.trim().slice(0, MAX_LENGTH));
}

export function nameInput(): HTMLInputElement {
  const input = document.createElement("input");
  input.type = "text";
  input.maxLength = MAX_LENGTH;
  input.placeholder = "your name";
  input.value = playerNameSetting();
  input.setAttribute("aria-label", "Your name");
  input.addEventListener("change", () => setPlayerNameSetting(input.value));
  return input;
}
