// /faq/list (spec §2): the common questions the host maintains in the setting Console.Faq, as an accordion with a
// search box; the host edits them here too.
import { ChevronDown, Pencil, Search } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "#shared/ui/button.tsx";
import { Card } from "#shared/ui/card.tsx";
import { cn } from "#shared/ui/cn.ts";
import { Empty } from "#shared/ui/empty.tsx";
import { Input } from "#shared/ui/input.tsx";
import { Loading } from "#shared/ui/spinner.tsx";
import type { PageProps } from "#shared/routes/table.ts";
import { useUserStore } from "../../stores/user.ts";
import { useFaqValue } from "./api/get-faq.ts";
import { FaqEditorDialog } from "./faq-editor-dialog.tsx";
import { parseFaq, searchFaq, splitMatches, type FaqItem } from "./faq-format.ts";

function Highlight({ text, search }: { text: string; search: string }) {
  return (
    <>
      {splitMatches(text, search).map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded-sm bg-yellow-200/70 px-0.5 text-inherit">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

function FaqEntry({
  item,
  index,
  search,
  open,
  onToggle,
}: {
  item: FaqItem;
  index: number;
  search: string;
  open: boolean;
  onToggle: () => void;
}) {
  const panelId = `faq-answer-${index}`;
  return (
    <div className="border-b last:border-b-0" data-testid={`faq-item-${index}`}>
      <h3>
        <button
          type="button"
          className="hover:bg-muted/50 flex w-full cursor-pointer items-center gap-3 px-4 py-3 text-left text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={onToggle}
          data-testid={`faq-question-${index}`}
        >
          <span className="bg-primary/10 text-primary grid size-6 shrink-0 place-items-center rounded-full text-xs">{index + 1}</span>
          <span className="flex-1">
            <Highlight text={item.q} search={search} />
          </span>
          <ChevronDown
            aria-hidden="true"
            className={cn("text-muted-foreground size-4 shrink-0 transition-transform", open && "rotate-180")}
          />
        </button>
      </h3>
      {open && (
        <div
          id={panelId}
          role="region"
          className="text-muted-foreground px-4 pb-4 pl-13 text-sm leading-relaxed whitespace-pre-wrap"
          data-testid={`faq-answer-${index}`}
        >
          {item.a ? <Highlight text={item.a} search={search} /> : "暂无答案"}
        </div>
      )}
    </div>
  );
}

export default function FaqPage(_props: PageProps) {
  const isHost = useUserStore((s) => s.isHost);
  const { data: value, isPending } = useFaqValue();
  const items = useMemo(() => parseFaq(value), [value]);
  const [search, setSearch] = useState("");
  const [opened, setOpened] = useState<Set<number>>(() => new Set());
  const [editing, setEditing] = useState(false);
  const shown = searchFaq(items, search);
  const searching = search.trim() !== "";

  function toggle(index: number) {
    setOpened((prev) => {
      const next = new Set(prev);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4" data-testid="faq-page">
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-56 flex-1">
          <Search
            aria-hidden="true"
            className="text-muted-foreground pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2"
          />
          <Input
            type="search"
            className="pl-9"
            placeholder="搜索问题或答案"
            aria-label="搜索常见问题"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="faq-search"
          />
        </div>
        {isHost && (
          <Button variant="outline" onClick={() => setEditing(true)} disabled={isPending} data-testid="faq-edit">
            <Pencil />
            编辑
          </Button>
        )}
      </div>

      <Card className="gap-0 overflow-hidden py-0">
        {isPending ? (
          <Loading className="h-40" />
        ) : items.length === 0 ? (
          <Empty text="暂无常见问题" data-testid="faq-empty" />
        ) : shown.length === 0 ? (
          <Empty text="没有匹配的问题" description="换个关键词试试" data-testid="faq-no-match" />
        ) : (
          <div data-testid="faq-list">
            {shown.map(({ item, index }) => (
              // While searching every match is open, so the highlighted answer is visible.
              <FaqEntry
                key={index}
                item={item}
                index={index}
                search={search}
                open={searching || opened.has(index)}
                onToggle={() => toggle(index)}
              />
            ))}
          </div>
        )}
      </Card>

      {isHost && <FaqEditorDialog open={editing} onOpenChange={setEditing} items={items} />}
    </div>
  );
}
