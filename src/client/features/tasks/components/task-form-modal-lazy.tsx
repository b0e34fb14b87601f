import { lazy, Suspense, useEffect, useState } from 'react';
import type { TaskFormModalProps } from './task-form-modal';

const loadTaskForm = () => import('./task-form-modal');
const TaskFormModalImpl = lazy(() => loadTaskForm().then((m) => ({ default: m.TaskFormModal })));

/** After the page has drawn: when the browser is idle, or after 2 s without it. */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 2000);
  return () => clearTimeout(id);
}

/**
 * The task form, with its code (and the validation schemas, zod, that it brings) loaded after the page rather than
 * with it: a cold load of the board evaluated all of it before drawing a card. Nothing renders until the form is
 * first opened, and its code is fetched as soon as the browser is idle, so that opening does not wait for it.
 */
export function TaskFormModal(props: TaskFormModalProps) {
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  useEffect(() => whenIdle(() => void loadTaskForm().catch(() => {})), []);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <TaskFormModalImpl {...props} />
    </Suspense>
  );
}
