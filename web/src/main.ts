// The entry point of the browser bundle. The pages come later; until then it shows a title so
// that a server started with --web-root web/dist has something to serve.
const app = document.getElementById("app");
if (app !== null) app.textContent = "Carcassonne: The City";
