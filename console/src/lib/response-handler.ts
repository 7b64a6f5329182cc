// The shared response handler (spec §8): every failed call's message is shown once as a notice. 401 logs out (through
// the API client's unauthorized hook), 403/404/429/500/400 show the message ApiError derived from the status and the
// server's body; other statuses (e.g. 409 on a stale edit) are left to the screen that made the call.
import { ApiError } from "#shared/api/errors.ts";
import { toast } from "#shared/ui/toast.tsx";

/** The notice to show for a failed call, or null when the caller handles it. */
export function noticeOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 0) return error.message; // no answer: time-out, network; the user should know
  return error.notice;
}

/** Shows the notice of a failed call; answers whether one was shown. */
export function handleServerError(error: unknown): boolean {
  const notice = noticeOf(error);
  if (notice == null) return false;
  if (error instanceof ApiError && error.status === 401) toast.warning(notice);
  else toast.error(notice);
  return true;
}
