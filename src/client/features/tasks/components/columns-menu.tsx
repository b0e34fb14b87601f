import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, Columns3 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Menu, MenuContent, MenuTrigger } from '../../../components/ui/menu';

/**
 * The list's 'Columns' menu (issue 38): a checkbox per optional column (the built-in ones and one per custom field);
 * the hidden ones are kept in the URL (`columns`) and in saved views (`hiddenColumns`). The menu stays open while
 * columns are ticked.
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
  const hiddenHere = columns.filter((c) => hidden.includes(c.id)).length;
  return (
    <Menu>
      <MenuTrigger asChild>
        <Button variant="secondary" size="sm">
          <Columns3 className="h-4 w-4" aria-hidden />
          Columns
          {hiddenHere > 0 && <span className="text-xs text-slate-600 dark:text-slate-300">({hiddenHere} hidden)</span>}
        </Button>
      </MenuTrigger>
      <MenuContent className="max-h-80 overflow-y-auto">
        {columns.map((c) => (
          <DropdownMenu.CheckboxItem
            key={c.id}
            checked={!hidden.includes(c.id)}
            onSelect={(e) => e.preventDefault()}
            onCheckedChange={(shown) =>
              onChange(shown ? hidden.filter((id) => id !== c.id) : [...hidden.filter((id) => id !== c.id), c.id])
            }
            className="flex cursor-pointer select-none items-center gap-2 rounded-lg px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
          >
            <span className="flex h-4 w-4 shrink-0 items-center justify-center rounded border border-slate-400 dark:border-slate-500">
              <DropdownMenu.ItemIndicator>
                <Check className="h-3.5 w-3.5" aria-hidden />
              </DropdownMenu.ItemIndicator>
            </span>
            {c.label}
          </DropdownMenu.CheckboxItem>
        ))}
      </MenuContent>
    </Menu>
  );
}
