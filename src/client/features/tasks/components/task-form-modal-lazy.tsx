import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { MSG } from '../../../../domain/messages';
import { Spinner } from '../../../components/ui/spinner';
import { logError } from '../../../lib/errors';
import type { TaskFormModalProps } from './task-form-modal';

const loadTaskForm = () => import('./task-form-modal');
// A task's own page (/tasks/:id, a shared link or a reload) opens the modal at once: fetch its code with the board's.
if (typeof window !== 'undefined' && /^\/tasks\/[^/]+/.test(window.location.pathname)) void loadTaskForm().catch(() => {});
/** Whether the form's code is in: only then does the form stay rendered while closed (its closing animation). */
let loaded = false;

/** The form's code could not be loaded (offline, or a newer deployment): say so, close, and try again next time. */
function LoadFailed({ onClose }: TaskFormModalProps) {
  useEffect(() => {
    toast.error(MSG.loadFailed);
    TaskFormModalImpl = lazyForm();
    onClose();
  }, [onClose]);
  return null;
}

const lazyForm = () =>
  lazy<ComponentType<TaskFormModalProps>>(() =>
    loadTaskForm().then(
      (m) => {
        loaded = true;
        return { default: m.TaskFormModal };
      },
      (error: unknown) => {
        logError('Failed to load the task form', error);
        return { default: LoadFailed };
      },
    ),
  );
let TaskFormModalImpl = lazyForm();

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
  if (!used || (!props.open && !loaded)) return null;
  return (
    <Suspense fallback={props.open ? <Spinner className="fixed inset-0 z-50 bg-slate-900/30" /> : null}>
      <TaskFormModalImpl {...props} />
    </Suspense>
  );
}
