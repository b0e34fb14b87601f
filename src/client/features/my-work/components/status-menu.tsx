import { Check, ChevronDown } from 'lucide-react';
import { TASK_STATUS_LABELS, TASK_STATUSES, type TaskStatus } from '../../../../domain/constants';
import type { TaskDto } from '../../../../domain/schemas/task';
import { Menu, MenuContent, MenuLabel, MenuRadioGroup, MenuRadioItem, MenuTrigger } from '../../../components/ui/menu';
import { cn } from '../../../lib/cn';

export interface StatusMenuProps {
  task: TaskDto;
  onChange: (task: TaskDto, status: TaskStatus) => void;
  className?: string;
}

const isStatus = (value: string): value is TaskStatus => (TASK_STATUSES as readonly string[]).includes(value);

/** A card's quick status change: a button that opens a menu of the four statuses, the current one checked. */
export function StatusMenu({ task, onChange, className }: StatusMenuProps) {
  return (
    <Menu>
      <MenuTrigger asChild>
        <button
          type="button"
          aria-label={`Change status of ${task.title}`}
          title="Change status"
          className={cn(
            'inline-flex h-8 w-8 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700',
            className,
          )}
        >
          <ChevronDown className="h-4 w-4" aria-hidden />
        </button>
      </MenuTrigger>
      <MenuContent>
        <MenuLabel>
          <span className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300">Status</span>
        </MenuLabel>
        <MenuRadioGroup
          value={task.status}
          onValueChange={(value) => {
            if (isStatus(value) && value !== task.status) onChange(task, value);
          }}
        >
          {TASK_STATUSES.map((status) => (
            <MenuRadioItem key={status} value={status}>
              <span className="flex-1">{TASK_STATUS_LABELS[status]}</span>
              {status === task.status && <Check className="h-4 w-4" aria-hidden />}
            </MenuRadioItem>
          ))}
        </MenuRadioGroup>
      </MenuContent>
    </Menu>
  );
}
