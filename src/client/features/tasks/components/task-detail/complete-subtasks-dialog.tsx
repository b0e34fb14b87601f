import { useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { Modal } from '../../../../components/ui/modal';

/** The question, to the letter of issue 37. */
export const COMPLETE_SUBTASKS_QUESTION = 'Complete its open sub-tasks too?';

export interface CompleteSubtasksDialogProps {
  open: boolean;
  /** The parent being completed and how many of its sub-tasks are open. */
  title: string;
  openCount: number;
  /** Yes (true): complete them in the same change; No (false): leave them as they are. */
  onAnswer: (completeSubtasks: boolean) => void;
  /** Escape, the close button or the backdrop: the status change does not happen. */
  onCancel: () => void;
}

/**
 * Asked when a task with open sub-tasks moves into a completed status (the board's drag, the task page's status):
 * Yes completes them too, No leaves them; closing it cancels the change.
 */
export function CompleteSubtasksDialog({ open, title, openCount, onAnswer, onCancel }: CompleteSubtasksDialogProps) {
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={COMPLETE_SUBTASKS_QUESTION}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => onAnswer(false)}>
            No
          </Button>
          <Button onClick={() => onAnswer(true)}>Yes</Button>
        </>
      }
    >
      <p className="text-sm text-slate-700 dark:text-slate-200">
        "{title}" has {openCount} open {openCount === 1 ? 'sub-task' : 'sub-tasks'}. Yes completes{' '}
        {openCount === 1 ? 'it' : 'them'} too; No completes only this task.
      </p>
    </Modal>
  );
}

interface Asking {
  title: string;
  openCount: number;
  resolve: (answer: boolean | null) => void;
}

/**
 * The question as a promise: `ask` resolves true (Yes), false (No) or null (closed: cancel the change); `dialog` is the
 * element to render.
 */
export function useCompleteSubtasksPrompt() {
  const [asking, setAsking] = useState<Asking | null>(null);
  const [shown, setShown] = useState<Omit<Asking, 'resolve'>>({ title: '', openCount: 0 });
  const ask = (title: string, openCount: number) =>
    new Promise<boolean | null>((resolve) => {
      setShown({ title, openCount });
      setAsking({ title, openCount, resolve });
    });
  const finish = (answer: boolean | null) => {
    asking?.resolve(answer);
    setAsking(null);
  };
  const dialog = (
    <CompleteSubtasksDialog
      open={asking !== null}
      title={shown.title}
      openCount={shown.openCount}
      onAnswer={finish}
      onCancel={() => finish(null)}
    />
  );
  return { ask, dialog };
}
