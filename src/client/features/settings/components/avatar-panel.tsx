import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { UserDto } from '../../../../domain/schemas/auth';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { toastError } from '../../../lib/errors';
import { useRemoveAvatar, useUploadAvatar } from '../api/avatar';
import { cropToSquare, toDataUrl } from '../hooks/crop-square';
import { SettingsPanel } from './settings-section';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

interface Preview {
  image: Blob;
  fileName: string;
  url: string;
}

/**
 * The avatar: an image chosen, cut to its centre square on this device (a <canvas>, 256 × 256), shown as a preview,
 * and saved only then; or removed, back to the initials. The top bar follows at once.
 */
export function AvatarPanel({ user }: { user: UserDto }) {
  const input = useRef<HTMLInputElement>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();

  // Focus follows the buttons: to 'Save avatar' when the preview shows, back to 'Change avatar' when it goes.
  const hadPreview = useRef(false);
  useEffect(() => {
    if (preview) saveButton.current?.focus();
    else if (hadPreview.current) changeButton.current?.focus();
    hadPreview.current = preview !== null;
  }, [preview]);

  const onChosen = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // The same file chosen again must fire a change again.
    e.target.value = '';
    if (!file) return;
    try {
      const image = await cropToSquare(file);
      const base = file.name.replace(/\.[^.]*$/, '') || 'avatar';
      const fileName = `${base}.${image.type === 'image/jpeg' ? 'jpg' : 'png'}`;
      setPreview({ image, fileName, url: await toDataUrl(image) });
    } catch {
      toast.error(SETTINGS_MSG.avatarUnreadable);
    }
  };

  const close = () => setPreview(null);

  const save = async () => {
    if (!preview) return;
    try {
      await upload.mutateAsync({ image: preview.image, fileName: preview.fileName });
      toast.success(SETTINGS_MSG.avatarUpdated);
      close();
    } catch (error) {
      toastError(error, SETTINGS_MSG.avatarUpdateFailed);
    }
  };

  const onRemove = async () => {
    try {
      await remove.mutateAsync(undefined);
      toast.success(SETTINGS_MSG.avatarRemoved);
      // The button pressed is gone with the picture.
      changeButton.current?.focus();
    } catch (error) {
      toastError(error, SETTINGS_MSG.avatarRemoveFailed);
    }
  };

  return (
    <SettingsPanel title="Avatar" description="A picture shown beside your name, cut to a square. PNG, JPEG, GIF or WebP.">
      <div className="flex flex-wrap items-center gap-4">
        {preview ? (
          <img
            src={preview.url}
            alt="Preview of your new avatar"
            width={80}
            height={80}
            className="h-20 w-20 rounded-full object-cover ring-2 ring-brand-600"
          />
        ) : (
          <Avatar name={user.fullName} src={user.avatar} size="lg" label="Your avatar" />
        )}
        {preview ? (
          <div className="space-y-2">
            <p className="text-sm text-slate-700 dark:text-slate-200">This is how it will look.</p>
            <div className="flex flex-wrap gap-2">
              <Button ref={saveButton} isLoading={upload.isPending} onClick={() => void save()}>
                {SETTINGS_MSG.saveAvatar}
              </Button>
              <Button variant="ghost" onClick={close} disabled={upload.isPending}>
                Cancel
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button ref={changeButton} variant="secondary" onClick={() => input.current?.click()}>
              {SETTINGS_MSG.changeAvatar}
            </Button>
            {user.avatar && (
              <Button variant="ghost" isLoading={remove.isPending} onClick={() => void onRemove()}>
                {SETTINGS_MSG.removeAvatar}
              </Button>
            )}
          </div>
        )}
        <input ref={input} type="file" accept={ACCEPT} hidden aria-label="Avatar image" onChange={(e) => void onChosen(e)} />
      </div>
    </SettingsPanel>
  );
}
