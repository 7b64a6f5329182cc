// The panel's start is timed (performance marks panel:*, read by bench/side-panel.ts): the script, the login state, the
// tab's state, the product asked for and received, the form shown (from the page's core or the stored product) and the
// stored product in it. This entry stays small (React and the editable core): the rest is loaded after (details.tsx).
// First: its module body asks the worker for the login state and the tab while React starts.
import "./start.ts";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import "./style.css";

performance.mark("panel:script");

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
