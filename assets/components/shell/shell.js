// The page's script, on every page: a components-v2 component (views/shell/script.py) mounted first in every run, in the
// page itself (no iframe, no shadow root). It makes Streamlit's page behave as a class and a screen reader need where no
// public API does (each file says what it does and why), draws Plotly charts near the screen with their numbers as a
// table, and keeps the step component's values in the link. The one script that reads Streamlit's private DOM
// (tests/test_shell_private_parts.py fails on an upgrade that renames a part).
//
// Every repair is made as Streamlit draws (repair.js): no reader, axe-core or a screen reader, meets the page before it.

import { STEPS_DRAWN } from "../common.js";
import { installAnnouncements } from "./announce.js";
import { installChartTools } from "./chart-tools.js";
import { installCharts } from "./charts.js";
import { installConnection } from "./connection.js";
import { arrive, installFocus } from "./focus.js";
import { installCookies, keep, keepAgain } from "./keep.js";
import { installLanguage } from "./language.js";
import { afterHistory, installNavigation, leftPage } from "./navigation.js";
import { checkNow, watch } from "./repair.js";
import { installTables } from "./tables.js";
import { setTexts } from "./texts.js";
import { installWidgets } from "./widgets.js";

/** @type {((name: string, value: unknown) => void) | null} */
let setState = null;

/**
 * After the server restarted, the tab reconnects to a new session: it sends that session the address it shows
 * (views/shell/state.resume), before the student's next action, so that the step, head and word stay and the next
 * slider move counts (a new session took Streamlit's older copy of the address for a link opened: the move was undone
 * and the walk jumped back to its first step).
 */
function resume() {
  setState?.("resume", { query: window.location.search, at: Date.now() });
}

/** Everything, once per page load (the component runs again in every run). */
function install() {
  const host = /** @type {any} */ (window);
  if (host.__attentionShell) return;
  host.__attentionShell = true;
  watch();
  installLanguage();
  installConnection(resume);
  installNavigation();
  leftPage(arrive); // a page chosen in the menu: its title takes the focus
  afterHistory(keepAgain); // the link Streamlit wrote, whenever it wrote it, keeps the step component's values
  installFocus();
  installWidgets();
  installAnnouncements();
  installCookies();
  installChartTools();
  installCharts();
  installTables();
  document.addEventListener(STEPS_DRAWN, checkNow);
}

/**
 * Streamlit's component entry: ``data`` is {kind: "shell", texts} (first in every run) or {kind: "keep", ...} (last).
 * @param {{data: any, setStateValue: (name: string, value: unknown) => void}} component
 */
export default function (component) {
  const { data } = component;
  if (!data) return;
  if (data.texts) setTexts(data.texts);
  if (data.kind === "shell") setState = component.setStateValue;
  if (data.kind === "keep") keep(data);
  else install();
}
