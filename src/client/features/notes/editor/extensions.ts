import Image from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import Mention from '@tiptap/extension-mention';
import { TableKit } from '@tiptap/extension-table';
import type { AnyExtension } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import type { SuggestionOptions } from '@tiptap/suggestion';
import { isAllowedHref, isAllowedImageSrc } from '../../../lib/sanitize-policy';
import { onNoteImageQuery, signedImageSrc } from './image-links';
import type { SuggestionItem } from './suggestion-menu';
import { TaskLink } from './task-link';

/** The src to show: only from this app (a note's image signed with its note's current link, image-links.ts), else ''. */
const shownSrc = (src: unknown) =>
  typeof src === 'string' && isAllowedImageSrc(src, window.location.origin) ? signedImageSrc(src) : '';

/**
 * Images only from this app (uploaded to the note); a remote or script URL renders nothing. Shown through a node view
 * that signs the image again when the note's link is renewed (the stored src is a stable path; links expire).
 */
const SafeImage = Image.extend({
  renderHTML({ HTMLAttributes }) {
    return ['img', { ...HTMLAttributes, src: shownSrc(HTMLAttributes.src), alt: HTMLAttributes.alt ?? '' }];
  },
  addNodeView() {
    return ({ node: initial }) => {
      const img = document.createElement('img');
      let node = initial;
      const paint = () => {
        const src = shownSrc(node.attrs.src);
        if (img.getAttribute('src') !== src) img.setAttribute('src', src);
        img.setAttribute('alt', typeof node.attrs.alt === 'string' ? node.attrs.alt : '');
        if (typeof node.attrs.title === 'string') img.setAttribute('title', node.attrs.title);
        else img.removeAttribute('title');
      };
      paint();
      const stop = onNoteImageQuery(paint);
      return {
        dom: img,
        update: (next) => {
          if (next.type !== node.type) return false;
          node = next;
          paint();
          return true;
        },
        destroy: stop,
      };
    };
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
