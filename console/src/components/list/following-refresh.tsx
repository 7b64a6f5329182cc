// The refresh control of a list that follows its running work by itself (the task centre, the collection tasks):
// 实时更新 (the live progress stream is open) or 每 N 秒自动刷新 (it is not: the list polls) while a row on the page is
// waiting or running, then the list's refresh button.
import { RefreshButton } from "#shared/ui/refresh-button.tsx";
import { Spinner } from "#shared/ui/spinner.tsx";
import { useProgressLive } from "../../lib/live-progress.ts";

export type FollowingRefreshProps = {
  /** The list's query: its refresh button spins while it fetches. */
  list: { isFetching: boolean; refetch: () => unknown };
  /** Whether the list asks again by itself now (a row still waiting or running). */
  following: boolean;
  /** How often it asks while following and the live progress stream is down. */
  pollMs: number;
  /** `${testId}-following` on the note, `${testId}-refresh` on the button. */
  testId: string;
};

export function FollowingRefresh({ list, following, pollMs, testId }: FollowingRefreshProps) {
  const live = useProgressLive();
  return (
    <>
      {following ? (
        <span className="text-muted-foreground flex items-center gap-1.5 text-xs" data-testid={`${testId}-following`}>
          <Spinner className="text-primary" />
          {live ? "实时更新" : `每 ${pollMs / 1000} 秒自动刷新`}
        </span>
      ) : null}
      <RefreshButton fetching={list.isFetching} onRefresh={list.refetch} data-testid={`${testId}-refresh`} />
    </>
  );
}
