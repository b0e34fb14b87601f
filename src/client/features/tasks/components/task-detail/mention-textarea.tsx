import { type KeyboardEvent, type RefObject, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PersonDto } from '../../../../../domain/schemas/task-detail';
import { FieldShell, inputClass } from '../../../../components/ui/field';
import { cn } from '../../../../lib/cn';
import { type ActiveMention, activeMention, insertMention, matchPeople } from './mentions';
import { PersonAvatar } from './person-avatar';

/** How many people the list shows at once. */
const MAX_OPTIONS = 8;

export interface MentionTextareaProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Who may be mentioned (the task's team); undefined while loading. */
  people: readonly PersonDto[] | undefined;
  /** A person was picked from the list (their `@Full Name` is now in the text). */
  onPick: (person: PersonDto) => void;
  /** Ctrl/Cmd+Enter. */
  onSubmit: () => void;
  /** Escape (when the list is closed) does this instead of closing the dialog around the box. */
  onEscape?: () => void;
  error?: string;
  placeholder?: string;
  rows?: number;
  autoFocus?: boolean;
  srOnlyLabel?: boolean;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
  className?: string;
}

/**
 * A comment box where `@` opens a list of the people who can be mentioned (the ARIA combobox pattern: the box keeps
 * focus and points at the highlighted option with aria-activedescendant). ArrowUp/ArrowDown move, Enter or Tab pick,
 * Escape closes the list; a click picks too. Typing narrows the list.
 */
export function MentionTextarea({
  label,
  value,
  onChange,
  people,
  onPick,
  onSubmit,
  onEscape,
  error,
  placeholder,
  rows = 3,
  autoFocus,
  srOnlyLabel,
  textareaRef,
  className,
}: MentionTextareaProps) {
  const listId = useId();
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const ref = textareaRef ?? ownRef;
  const [mention, setMention] = useState<ActiveMention | null>(null);
  const [index, setIndex] = useState(0);
  /** The `@` the person closed the list for with Escape: it stays closed until another `@`. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const pendingCaret = useRef<number | null>(null);

  const options = useMemo(
    () => (mention && people ? matchPeople(people, mention.query).slice(0, MAX_OPTIONS) : []),
    [mention, people],
  );
  const isOpen = options.length > 0;
  const active = isOpen ? Math.min(index, options.length - 1) : -1;

  // Radix closes the dialog on an Escape it sees at the document (capture phase): when the list is open, or the box
  // has its own use for Escape, mark the key handled first (the window's capture phase comes before the document's).
  const escapeIsOurs = useRef(false);
  escapeIsOurs.current = isOpen || Boolean(onEscape);
  useEffect(() => {
    const guard = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && e.target === ref.current && escapeIsOurs.current) e.preventDefault();
    };
    window.addEventListener('keydown', guard, { capture: true });
    return () => window.removeEventListener('keydown', guard, { capture: true });
  }, [ref]);

  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret === null || !ref.current) return;
    pendingCaret.current = null;
    ref.current.setSelectionRange(caret, caret);
  });

  /** Follows the caret: the mention it is in, if any. */
  const track = (el: HTMLTextAreaElement) => {
    const found = activeMention(el.value, el.selectionStart ?? el.value.length);
    const next = found && found.start !== dismissed ? found : null;
    if (found?.start !== dismissed) setDismissed(null);
    setMention((prev) => (prev?.start === next?.start && prev?.query === next?.query ? prev : next));
    if (!next || next.start !== mention?.start) setIndex(0);
  };

  const pick = (person: PersonDto) => {
    const el = ref.current;
    if (!mention || !el) return;
    const result = insertMention(value, mention, el.selectionStart ?? value.length, person);
    pendingCaret.current = result.caret;
    setMention(null);
    onChange(result.text);
    onPick(person);
    el.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setIndex((active + step + options.length) % options.length);
        return;
      }
      if ((e.key === 'Enter' && !e.ctrlKey && !e.metaKey) || (e.key === 'Tab' && !e.shiftKey)) {
        e.preventDefault();
        pick(options[active]!);
        return;
      }
      if (e.key === 'Escape') {
        setDismissed(mention?.start ?? null);
        setMention(null);
        return;
      }
    }
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onSubmit();
      return;
    }
    if (e.key === 'Escape' && onEscape) onEscape();
  };

  return (
    <FieldShell label={label} error={error} srOnlyLabel={srOnlyLabel} className={className}>
      {({ id, describedBy, invalid }) => (
        <div className="relative">
          <textarea
            ref={ref}
            id={id}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={isOpen}
            aria-controls={isOpen ? listId : undefined}
            aria-activedescendant={isOpen ? `${listId}-${active}` : undefined}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            className={cn(inputClass, 'min-h-20 resize-y')}
            value={value}
            rows={rows}
            placeholder={placeholder}
            autoFocus={autoFocus}
            onChange={(e) => {
              onChange(e.target.value);
              track(e.target);
            }}
            onKeyDown={onKeyDown}
            onKeyUp={(e) => {
              if (e.key.startsWith('Arrow') && !isOpen) track(e.currentTarget);
              if (e.key === 'Home' || e.key === 'End') track(e.currentTarget);
            }}
            onClick={(e) => track(e.currentTarget)}
            onBlur={() => setMention(null)}
          />
          {isOpen && (
            <div
              id={listId}
              role="listbox"
              aria-label="People to mention"
              className="absolute left-0 top-full z-10 mt-1 max-h-64 w-full max-w-xs overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-600 dark:bg-slate-800"
            >
              {options.map((person, i) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works on the box (aria-activedescendant)
                <div
                  key={person.id}
                  id={`${listId}-${i}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === active}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm text-slate-800 dark:text-slate-100',
                    i === active && 'bg-brand-50 text-brand-700 dark:bg-slate-700 dark:text-white',
                  )}
                  // Keep the focus (and the caret) in the box.
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => setIndex(i)}
                  onClick={() => pick(person)}
                >
                  <PersonAvatar person={person} className="h-6 w-6 text-[0.65rem]" />
                  <span className="truncate">{person.fullName}</span>
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </FieldShell>
  );
}
