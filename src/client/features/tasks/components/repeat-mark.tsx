import { Repeat } from 'lucide-react';
import { describeRepeat } from '../../../../domain/recurrence';
import type { TaskDto } from '../../../../domain/schemas/task';

/**
 * A repeating task's mark on its card (issue 39): the icon, and for screen readers what it means ('Repeats weekly on
 * Monday'). Only the task that carries its series has one (decision 0027): the one the next is made from.
 */
export function RepeatMark({ task }: { task: Pick<TaskDto, 'repeat'> }) {
  if (!task.repeat) return null;
  const words = describeRepeat(task.repeat.rule);
  return (
    <span className="inline-flex items-center" title={words} data-testid="card-repeat">
      <Repeat className="h-3.5 w-3.5" aria-hidden />
      <span className="sr-only">{words}</span>
    </span>
  );
}
