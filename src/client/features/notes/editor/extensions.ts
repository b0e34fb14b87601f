import Image from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import Mention from '@tiptap/extension-mention';
import { TableKit } from '@tiptap/extension-table';
import type { AnyExtension } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import type { SuggestionOptions } from '@tiptap/suggestion';
import { isAllowedHref, isAllowedImageSrc } from './link-policy';
import type { SuggestionItem } from './suggestion-menu';
import { TaskLink } from './task-link';

/** Images only from this app (uploaded to the note); a remote or script URL renders nothing. */
const SafeImage = Image.extend({
  renderHTML({ HTMLAttributes }) {
    const ok = typeof HTMLAttributes.src === 'string' && isAllowedImageSrc(HTMLAttributes.src, window.location.origin);
    return ['img', { ...HTMLAttributes, src: ok ? HTMLAttributes.src : '', alt: HTMLAttributes.alt ?? '' }];
  },
});

type Suggestion = Omit<SuggestionOptions<SuggestionItem>, 'editor'>;

/**
 * The note's schema: the same for the live editor and a version's read-only preview. Links only to http(s) and
 * mailto (Tiptap's Link also refuses others when rendering, so a hostile client writing the Y.Doc directly gains
 * nothing), opened in a new tab without opener or referrer.
 */
export function noteExtensions(suggestions?: { mention: Suggestion; task: Suggestion }): AnyExtension[] {
  return [
    StarterKit.configure({
      // Collaboration brings its own undo (per user, over the shared document).
      undoRedo: false,
      heading: { levels: [1, 2, 3] },
      link: {
        openOnClick: false,
        autolink: true,
        linkOnPaste: true,
        defaultProtocol: 'https',
        protocols: ['mailto'],
        isAllowedUri: (url) => isAllowedHref(url),
        HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: '_blank' },
      },
    }),
    TaskList,
    TaskItem.configure({ nested: true }),
    TableKit.configure({ table: { resizable: false } }),
    SafeImage.configure({ inline: false, allowBase64: false }),
    Mention.configure({ HTMLAttributes: { class: 'note-mention' }, ...(suggestions && { suggestion: suggestions.mention }) }),
    TaskLink.configure(suggestions ? { suggestion: suggestions.task } : {}),
  ];
}
