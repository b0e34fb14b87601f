import type { Editor } from '@tiptap/react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { normaliseHref } from './link-policy';

/** The toolbar's Link: a web address (http, https) or an email link for the selected text; or remove the link. */
export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = (editor.getAttributes('link').href as string | undefined) ?? '';
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | undefined>();

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const href = normaliseHref(value);
    if (!href) {
      setError('Enter a web address (http or https) or a mailto: link');
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
    } else {
      chain.setLink({ href }).run();
    }
    onClose();
  };
  const remove = () => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    onClose();
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="Link"
      size="sm"
      footer={
        <>
          {current && (
            <Button variant="secondary" className="mr-auto" onClick={remove}>
              Remove link
            </Button>
          )}
          <ModalActions onCancel={onClose} type="submit" form="note-link-form">
            Apply
          </ModalActions>
        </>
      }
    >
      <form id="note-link-form" onSubmit={apply} noValidate>
        <TextField
          label="URL"
          type="url"
          autoFocus
          value={value}
          error={error}
          placeholder="https://example.org"
          onChange={(e) => {
            setValue(e.target.value);
            setError(undefined);
          }}
        />
      </form>
    </Modal>
  );
}
