// Providers and routes (spec §2): hash routes; `/` → /login; /login; /register (self-registration, not in the spec's
// table: offered on /login while the host allows it); /redirect/{path}; /exception/404; everything else
// is inside the main layout behind the guard, which resolves paths against the routes built after login.
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { HashRouter, Navigate, Route, Routes } from "react-router-dom";
import { basicRoutes } from "#shared/routes/table.ts";
import { ConfirmHost } from "#shared/ui/confirm.tsx";
import { Toaster } from "#shared/ui/toast.tsx";
import { queryClient } from "../lib/query-client.ts";
import { GuestOnly, RequireAuth } from "./guard.tsx";
import { LoginPage } from "../features/auth/login-page.tsx";
import { RegisterPage } from "../features/auth/register-page.tsx";
import { NotFoundPage } from "../features/exception/not-found-page.tsx";
import { RedirectPage } from "./redirect-page.tsx";
import { Loading } from "#shared/ui/spinner.tsx";

// The layout (menus, tabs, header) is its own chunk: the login route does not load it.
const MainLayout = lazy(() => import("./layout/main-layout.tsx"));

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <HashRouter>
        <Routes>
          <Route path={basicRoutes.root} element={<Navigate to={basicRoutes.login} replace />} />
          <Route
            path={basicRoutes.login}
            caseSensitive
            element={
              <GuestOnly>
                <LoginPage />
              </GuestOnly>
            }
          />
          <Route
            path={basicRoutes.register}
            caseSensitive
            element={
              <GuestOnly>
                <RegisterPage />
              </GuestOnly>
            }
          />
          <Route path={basicRoutes.notFound} caseSensitive element={<NotFoundPage />} />
          <Route path={`${basicRoutes.redirect}/*`} element={<RedirectPage />} />
          <Route
            path="*"
            element={
              <RequireAuth>
                <Suspense fallback={<Loading className="h-screen" />}>
                  <MainLayout />
                </Suspense>
              </RequireAuth>
            }
          />
        </Routes>
      </HashRouter>
      <Toaster />
      <ConfirmHost />
    </QueryClientProvider>
  );
}
