// The infringement word list's columns: the word and when it was added.
import type { InfringementWord } from "#shared/contract/infringement.ts";
import type { DataTableColumn } from "#shared/ui/data-table.tsx";
import { formatDateTime } from "../../lib/format.ts";

export const sensitivesColumns: DataTableColumn<InfringementWord>[] = [
  {
    id: "word",
    header: "词",
    cell: (r) => (
      <span className="break-all" title={r.word} data-testid={`sensitives-row-${r.id}`}>
        {r.word}
      </span>
    ),
  },
  {
    id: "creationTime",
    header: "添加时间",
    width: 200,
    cell: (r) => <span className="text-muted-foreground tabular-nums">{formatDateTime(r.creationTime)}</span>,
  },
];
