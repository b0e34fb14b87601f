import { Columns3 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';

/**
 * The list's 'Columns' menu (issue 38): a checkbox per optional column (the built-in ones and one per custom field);
 * the hidden ones are kept in the URL (`columns`) and in saved views (`hiddenColumns`). A disclosure with plain
 * checkboxes (Tab, Space), closed by Escape (focus back on 'Columns'), by 'Columns' again or by a click elsewhere.
 */
export function ColumnsMenu({
  columns,
  hidden,
  onChange,
}: {
  columns: { id: string; label: string }[];
  hidden: readonly string[];
  onChange: (hidden: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const hiddenHere = columns.filter((c) => hidden.includes(c.id)).length;

  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', onEscape);
    };
  }, [open]);

  return (
    <div ref={box} className="relative">
      <Button
        ref={button}
        variant="secondary"
        size="sm"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <Columns3 className="h-4 w-4" aria-hidden />
        Columns
        {hiddenHere > 0 && <span className="text-xs text-slate-600 dark:text-slate-300">({hiddenHere} hidden)</span>}
      </Button>
      {open && (
        <fieldset
          id={id}
          className="absolute right-0 z-30 mt-2 max-h-80 w-56 overflow-y-auto rounded-xl border border-slate-200 bg-white p-2 text-slate-900 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          <legend className="sr-only">Columns shown</legend>
          {columns.map((c) => (
            <label
              key={c.id}
              className="flex cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-400 accent-brand-600"
                checked={!hidden.includes(c.id)}
                onChange={(e) => {
                  const rest = hidden.filter((h) => h !== c.id);
                  onChange(e.target.checked ? rest : [...rest, c.id]);
                }}
              />
              {c.label}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
