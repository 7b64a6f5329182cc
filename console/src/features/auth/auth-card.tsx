// The frame of the screens before login (登录, 注册): the product's name on a card in the middle of the page, and the
// one line that says why a submit failed.
import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#shared/ui/card.tsx";

export function AuthCard({ description, children }: { description: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-100 to-blue-50 p-4">
      <Card className="w-full max-w-sm shadow-lg">
        <CardHeader className="text-center">
          <CardTitle className="text-xl">美客多 ERP</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </div>
  );
}

/** Why the last submit failed (also shown as a notice); nothing while there is no error. */
export function AuthError({ message, testId }: { message: string | null; testId: string }) {
  if (!message) return null;
  return (
    <p className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert" data-testid={testId}>
      {message}
    </p>
  );
}
