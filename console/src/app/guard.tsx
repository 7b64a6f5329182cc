// The route guard (spec §2/§4): no token → /login; a logged-in user on /login → /dashboard; with a token but no routes
// yet (a reload), the user info and cache are loaded once before anything protected renders.
import { useEffect, useState, type ReactNode } from "react";
import { Navigate } from "react-router-dom";
import { basicRoutes } from "#shared/routes/table.ts";
import { Loading } from "#shared/ui/spinner.tsx";
import { toast } from "#shared/ui/toast.tsx";
import { isSigningIn, loadUserSession, logout, sessionMessages } from "../lib/session.ts";
import { usePermissionStore } from "../stores/permission.ts";
import { useUserStore } from "../stores/user.ts";

export function GuestOnly({ children }: { children: ReactNode }) {
  const token = useUserStore((s) => s.access_token);
  // With a token (also after a reload, before the user info is loaded again) /login goes to the dashboard, whose guard
  // loads the session; not while the login screen itself is loading it.
  if (token && !isSigningIn()) return <Navigate to={basicRoutes.home} replace />;
  return children;
}

let restoring: Promise<void> | null = null;

export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useUserStore((s) => s.access_token);
  const ready = usePermissionStore((s) => s.isDynamicAddedRoute);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!token || ready) return;
    // One restore for the whole page, even when StrictMode runs the effect twice.
    restoring ??= loadUserSession()
      .catch(async () => {
        toast.error(sessionMessages.loadFailed);
        setFailed(true);
        await logout();
      })
      .finally(() => {
        restoring = null;
      });
  }, [token, ready]);

  if (!token || failed) return <Navigate to={basicRoutes.login} replace />;
  if (!ready) return <Loading className="h-screen" />;
  return children;
}
