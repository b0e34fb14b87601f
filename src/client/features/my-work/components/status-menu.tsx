import { Check, ChevronDown } from 'lucide-react';
import type { TaskDto } from '../../../../domain/schemas/task';
import { DEFAULT_STATUSES } from '../../../../domain/workflow';
import { Menu, MenuContent, MenuLabel, MenuRadioGroup, MenuRadioItem, MenuTrigger } from '../../../components/ui/menu';
import { cn } from '../../../lib/cn';
import { useProjectStatuses } from '../../../lib/queries/statuses';

export interface StatusMenuProps {
  task: TaskDto;
  onChange: (task: TaskDto, status: string) => void;
  className?: string;
}

/** A card's quick status change: a button that opens a menu of its project's statuses, the current one checked. */
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
        <StatusItems task={task} onChange={onChange} />
      </MenuContent>
    </Menu>
  );
}

/**
 * The menu's choices: the task's project's statuses, asked for when the menu opens (the default four until they
 * come, the workflow every project starts with).
 */
function StatusItems({ task, onChange }: Pick<StatusMenuProps, 'task' | 'onChange'>) {
  const statuses = useProjectStatuses(task.projectId).data ?? DEFAULT_STATUSES;
  return (
    <MenuRadioGroup
      value={task.status}
      onValueChange={(value) => {
        if (value !== task.status && statuses.some((s) => s.key === value)) onChange(task, value);
      }}
    >
      {statuses.map((status) => (
        <MenuRadioItem key={status.key} value={status.key}>
          <span className="flex-1">{status.name}</span>
          {status.key === task.status && <Check className="h-4 w-4" aria-hidden />}
        </MenuRadioItem>
      ))}
    </MenuRadioGroup>
  );
}
