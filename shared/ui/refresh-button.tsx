// The one "refresh this list" button: an icon that spins while the query refetches.
import { RefreshCw } from "lucide-react";
import { Button, type ButtonProps } from "./button.tsx";

export type RefreshButtonProps = Omit<ButtonProps, "onClick" | "children"> & {
  fetching: boolean;
  onRefresh: () => unknown;
  /** Shows the word 刷新 next to the icon. */
  withLabel?: boolean;
};

export function RefreshButton({ fetching, onRefresh, withLabel, ...props }: RefreshButtonProps) {
  return (
    <Button
      variant="outline"
      size={withLabel ? "default" : "icon"}
      aria-label="刷新"
      title="刷新"
      disabled={fetching}
      onClick={() => void onRefresh()}
      {...props}
    >
      <RefreshCw className={fetching ? "animate-spin" : undefined} />
      {withLabel ? "刷新" : null}
    </Button>
  );
}
