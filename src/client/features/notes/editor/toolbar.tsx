import type { Editor } from '@tiptap/react';
import { useEditorState } from '@tiptap/react';
import {
  BetweenHorizontalEnd,
  BetweenVerticalEnd,
  Bold,
  Code,
  Heading1,
  Heading2,
  Heading3,
  Image as ImageIcon,
  Italic,
  Link as LinkIcon,
  List,
  ListChecks,
  ListOrdered,
  type LucideIcon,
  Quote,
  Redo2,
  SquareCode,
  Strikethrough,
  Table as TableIcon,
  Trash2,
  Undo2,
} from 'lucide-react';
import { type KeyboardEvent, type MouseEvent, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';

/** What the toolbar asks of the page: the dialogs and the file picker live there. */
export interface ToolbarActions {
  onLink: () => void;
  onImage: () => void;
}

interface Tool {
  id: string;
  label: string;
  icon: LucideIcon;
  /** A toggle (aria-pressed) when set. */
  active?: (e: Editor) => boolean;
  run: (e: Editor, focus: boolean) => void;
  can?: (e: Editor) => boolean;
  /** Shown only inside a table. */
  inTable?: boolean;
  /** Starts a new group (a divider before it). */
  group?: boolean;
}

const chain = (e: Editor, focus: boolean) => (focus ? e.chain().focus() : e.chain());

function tools(actions: ToolbarActions): Tool[] {
  return [
    { id: 'bold', label: 'Bold', icon: Bold, active: (e) => e.isActive('bold'), run: (e, f) => chain(e, f).toggleBold().run() },
    {
      id: 'italic',
      label: 'Italic',
      icon: Italic,
      active: (e) => e.isActive('italic'),
      run: (e, f) => chain(e, f).toggleItalic().run(),
    },
    {
      id: 'strike',
      label: 'Strikethrough',
      icon: Strikethrough,
      active: (e) => e.isActive('strike'),
      run: (e, f) => chain(e, f).toggleStrike().run(),
    },
    {
      id: 'code',
      label: 'Inline code',
      icon: Code,
      active: (e) => e.isActive('code'),
      run: (e, f) => chain(e, f).toggleCode().run(),
    },
    {
      id: 'h1',
      label: 'Heading 1',
      icon: Heading1,
      group: true,
      active: (e) => e.isActive('heading', { level: 1 }),
      run: (e, f) => chain(e, f).toggleHeading({ level: 1 }).run(),
    },
    {
      id: 'h2',
      label: 'Heading 2',
      icon: Heading2,
      active: (e) => e.isActive('heading', { level: 2 }),
      run: (e, f) => chain(e, f).toggleHeading({ level: 2 }).run(),
    },
    {
      id: 'h3',
      label: 'Heading 3',
      icon: Heading3,
      active: (e) => e.isActive('heading', { level: 3 }),
      run: (e, f) => chain(e, f).toggleHeading({ level: 3 }).run(),
    },
    {
      id: 'bullets',
      label: 'Bulleted list',
      icon: List,
      group: true,
      active: (e) => e.isActive('bulletList'),
      run: (e, f) => chain(e, f).toggleBulletList().run(),
    },
    {
      id: 'numbers',
      label: 'Numbered list',
      icon: ListOrdered,
      active: (e) => e.isActive('orderedList'),
      run: (e, f) => chain(e, f).toggleOrderedList().run(),
    },
    {
      id: 'checklist',
      label: 'Checklist',
      icon: ListChecks,
      active: (e) => e.isActive('taskList'),
      run: (e, f) => chain(e, f).toggleTaskList().run(),
    },
    {
      id: 'quote',
      label: 'Quote',
      icon: Quote,
      active: (e) => e.isActive('blockquote'),
      run: (e, f) => chain(e, f).toggleBlockquote().run(),
    },
    {
      id: 'codeblock',
      label: 'Code block',
      icon: SquareCode,
      active: (e) => e.isActive('codeBlock'),
      run: (e, f) => chain(e, f).toggleCodeBlock().run(),
    },
    { id: 'link', label: 'Link', icon: LinkIcon, group: true, run: () => actions.onLink() },
    {
      id: 'table',
      label: 'Table',
      icon: TableIcon,
      run: (e, f) => chain(e, f).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
      can: (e) => !e.isActive('table'),
    },
    { id: 'image', label: 'Image', icon: ImageIcon, run: () => actions.onImage() },
    {
      id: 'row',
      label: 'Add row',
      icon: BetweenHorizontalEnd,
      inTable: true,
      group: true,
      run: (e, f) => chain(e, f).addRowAfter().run(),
    },
    {
      id: 'col',
      label: 'Add column',
      icon: BetweenVerticalEnd,
      inTable: true,
      run: (e, f) => chain(e, f).addColumnAfter().run(),
    },
    { id: 'deltable', label: 'Delete table', icon: Trash2, inTable: true, run: (e, f) => chain(e, f).deleteTable().run() },
    { id: 'undo', label: 'Undo', icon: Undo2, group: true, run: (e, f) => chain(e, f).undo().run(), can: (e) => e.can().undo() },
    { id: 'redo', label: 'Redo', icon: Redo2, run: (e, f) => chain(e, f).redo().run(), can: (e) => e.can().redo() },
  ];
}

/**
 * The formatting toolbar: one tab stop (roving tabindex: arrows, Home and End move between the buttons), every button
 * named, toggles with aria-pressed. A click keeps the editor's selection (the button does not take focus on
 * mousedown); a key press keeps the focus on the toolbar.
 */
export function Toolbar({ editor, actions, disabled }: { editor: Editor; actions: ToolbarActions; disabled?: boolean }) {
  const all = useRef(tools(actions));
  all.current = tools(actions);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const inTable = e.isActive('table');
      return {
        inTable,
        active: Object.fromEntries(all.current.map((t) => [t.id, t.active?.(e) ?? false])) as Record<string, boolean>,
        enabled: Object.fromEntries(all.current.map((t) => [t.id, e.isEditable && (t.can?.(e) ?? true)])) as Record<
          string,
          boolean
        >,
      };
    },
  });
  const shown = all.current.filter((t) => !t.inTable || state.inTable);
  const [focusId, setFocusId] = useState(shown[0]!.id);
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const current = shown.some((t) => t.id === focusId) ? focusId : shown[0]!.id;

  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const ids = shown.map((t) => t.id);
    const at = ids.indexOf(current);
    const to =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? (at + 1) % ids.length
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? (at - 1 + ids.length) % ids.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? ids.length - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    setFocusId(ids[to]!);
    refs.current.get(ids[to]!)?.focus();
  };

  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      aria-orientation="horizontal"
      onKeyDown={move}
      className="flex flex-wrap items-center gap-0.5 border-b border-slate-200 bg-white px-2 py-1.5 dark:border-slate-700 dark:bg-slate-900"
    >
      {shown.map((tool) => {
        const Icon = tool.icon;
        const isToggle = tool.active !== undefined;
        const enabled = !disabled && state.enabled[tool.id];
        return (
          <span key={tool.id} className="contents">
            {tool.group && <span aria-hidden className="mx-1 h-5 w-px bg-slate-200 dark:bg-slate-700" />}
            <button
              ref={(el) => {
                if (el) refs.current.set(tool.id, el);
                else refs.current.delete(tool.id);
              }}
              type="button"
              aria-label={tool.label}
              title={tool.label}
              aria-pressed={isToggle ? state.active[tool.id] : undefined}
              aria-disabled={!enabled || undefined}
              tabIndex={tool.id === current ? 0 : -1}
              onFocus={() => setFocusId(tool.id)}
              onMouseDown={(e: MouseEvent) => e.preventDefault()}
              onClick={(e) => {
                if (!enabled) return;
                // detail 0: Enter or Space on the button (keep the focus here); else a pointer (back to the text).
                tool.run(editor, e.detail !== 0);
              }}
              className={cn(
                'inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-700 transition-colors dark:text-slate-200',
                enabled ? 'hover:bg-slate-100 dark:hover:bg-slate-800' : 'cursor-not-allowed opacity-50',
                state.active[tool.id] && 'bg-brand-100 text-indigo-800 dark:bg-indigo-900 dark:text-indigo-100',
              )}
            >
              <Icon className="h-4 w-4" aria-hidden />
            </button>
          </span>
        );
      })}
    </div>
  );
}
