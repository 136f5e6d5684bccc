// The server restarted or the network dropped for a moment: Streamlit says "Connection error … Are you connected to
// the internet?" until it reconnects (8–11 s after a restart), which in a classroom reads as "the Wi-Fi is down". The
// page says calmly, in its language, that it reconnects by itself and that nothing sent is lost
// (assets/text/*/browser.toml [connection]). Streamlit 1.67 has no public way to word this dialog: its text is fixed in
// its bundle (tests/test_shell_private_parts.py fails on an upgrade that changes it).

import { repair } from "./repair.js";
import { said } from "./texts.js";

/** Streamlit's own title of the dialog, as its bundle writes it. */
export const STREAMLIT_TITLE = "Connection error";

/** @param {Element} dialog Streamlit's dialog: reworded where it is the connection's */
function reword(dialog) {
  const title = dialog.querySelector("h2");
  if (!title) return;
  const ours = dialog.hasAttribute("data-connection");
  if (!ours && title.textContent?.trim() !== STREAMLIT_TITLE) return;
  if (!ours) dialog.setAttribute("data-connection", "");
  const words = { title: said("connection.title"), message: said("connection.message") };
  if (!words.title || !words.message) return;
  if (title.textContent !== words.title) title.textContent = words.title;
  const body = title.nextElementSibling;
  if (body && body.textContent !== words.message) body.replaceChildren(document.createTextNode(words.message));
}

/**
 * The connection's dialog, reworded as Streamlit draws it and whenever it draws it again; ``back`` is called once the
 * connection is back after it was lost (Streamlit marks its state on the app's box, and disables the page while it is
 * lost: ``back`` comes before the student can act again).
 * @param {() => void} back
 */
export function installConnection(back) {
  repair("[data-testid=stDialog] section[role=dialog]", reword);
  let lost = false;
  const STATE = "data-test-connection-state";
  repair(
    "[data-testid=stApp]",
    (app) => {
      const connected = app.getAttribute(STATE) === "CONNECTED";
      if (lost && connected) back();
      lost = !connected && app.hasAttribute(STATE);
    },
    [STATE],
  );
}
