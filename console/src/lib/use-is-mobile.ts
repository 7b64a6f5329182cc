// Spec §2/§9: the mobile layout applies when the body is narrower than 1000px.
import { useSyncExternalStore } from "react";

const MOBILE_BREAKPOINT = 1000;

function subscribe(onChange: () => void) {
  const observer = new ResizeObserver(onChange);
  observer.observe(document.body);
  return () => observer.disconnect();
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => document.body.clientWidth < MOBILE_BREAKPOINT);
}
