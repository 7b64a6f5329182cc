// URL search params for a cached (keepAlive) tab. A cached page stays mounted while other tabs are shown, so it must
// not follow their URLs; and the tab bar reopens a tab by its bare path, which would drop its filters. This hook keeps
// the page's own query string: while the page is shown it is the URL's; a bare return to the page restores the last
// one (the URL is put back); a link arriving with its own params is taken as is.
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";

export type SetTabSearchParams = (change: (prev: URLSearchParams) => URLSearchParams) => void;

const withMark = (qs: string) => (qs ? `?${qs}` : "");

export function useTabSearchParams(path: string): [URLSearchParams, SetTabSearchParams] {
  const location = useLocation();
  const navigate = useNavigate();
  const own = location.pathname === path;
  // The page's query string ("?a=1" or ""); null until the page has been shown once.
  const stored = useRef<string | null>(null);
  if (own && stored.current === null) stored.current = location.search;

  const differs = own && location.search !== stored.current;
  const restore = differs && location.search === "" && !!stored.current;
  // A link to this page with params of its own (e.g. from another screen) wins over what was there.
  if (differs && !restore) stored.current = location.search;

  useEffect(() => {
    if (restore && stored.current) navigate({ pathname: path, search: stored.current }, { replace: true });
  }, [restore, navigate, path]);

  const search = stored.current ?? "";
  const params = useMemo(() => new URLSearchParams(search), [search]);

  const setParams = useCallback<SetTabSearchParams>(
    (change) => {
      const next = withMark(change(new URLSearchParams(stored.current ?? "")).toString());
      if (next === stored.current) return;
      stored.current = next;
      navigate({ pathname: path, search: next }, { replace: true });
    },
    [navigate, path],
  );
  return [params, setParams];
}
