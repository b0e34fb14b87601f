import { type RefObject, useRef, useState } from 'react';
import { parseForm } from '../../../../../domain/forms';
import { type CommentInput, commentInput, type PersonDto } from '../../../../../domain/schemas/task-detail';
import { Button } from '../../../../components/ui/button';
import { MentionTextarea } from './mention-textarea';
import { toMentionTokens } from './mentions';

export interface CommentBoxProps {
  label: string;
  submitLabel: string;
  /** The text to start from (an edit: the body with its mentions as `@Name`). */
  initialText?: string;
  /** People the text already mentions (an edit), so that their names turn back into the same ids. */
  initialPeople?: readonly PersonDto[];
  people: readonly PersonDto[] | undefined;
  isSaving: boolean;
  /** Sends the body (with `<@id>` tokens); resolves true when saved. */
  onSave: (input: CommentInput) => Promise<boolean>;
  onCancel?: () => void;
  autoFocus?: boolean;
  srOnlyLabel?: boolean;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
  /** Shown next to the buttons (e.g. the Ctrl+Enter hint). */
  hint?: string;
}

/** A comment being written or edited: the mention box, its error, and its buttons. */
export function CommentBox({
  label,
  submitLabel,
  initialText = '',
  initialPeople = [],
  people,
  isSaving,
  onSave,
  onCancel,
  autoFocus,
  srOnlyLabel,
  textareaRef,
  hint,
}: CommentBoxProps) {
  const [text, setText] = useState(initialText);
  const [error, setError] = useState<string | undefined>();
  const picked = useRef<PersonDto[]>([...initialPeople]);

  const submit = async () => {
    if (isSaving) return;
    // Picked people first: two teammates of one name are told apart by who was picked.
    const body = toMentionTokens(text, [...picked.current, ...(people ?? [])]);
    const parsed = parseForm(commentInput, { body });
    if (!parsed.ok) {
      setError(parsed.errors.body);
      return;
    }
    setError(undefined);
    if (await onSave(parsed.data)) {
      if (!onCancel) {
        setText('');
        picked.current = [];
      }
    }
  };

  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <MentionTextarea
        label={label}
        srOnlyLabel={srOnlyLabel}
        value={text}
        onChange={(v) => {
          setText(v);
          if (error) setError(undefined);
        }}
        people={people}
        onPick={(p) => {
          picked.current = [p, ...picked.current.filter((q) => q.id !== p.id)];
        }}
        onSubmit={() => void submit()}
        onEscape={onCancel}
        error={error}
        autoFocus={autoFocus}
        textareaRef={textareaRef}
        placeholder={onCancel ? undefined : 'Write a comment… Type @ to mention a teammate'}
      />
      <div className="flex flex-wrap items-center justify-end gap-2">
        {hint && <span className="mr-auto text-xs text-slate-600 dark:text-slate-400">{hint}</span>}
        {onCancel && (
          <Button variant="secondary" size="sm" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="sm" isLoading={isSaving}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
