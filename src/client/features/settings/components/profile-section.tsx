import { type FormEvent, useMemo } from 'react';
import { SETTINGS_MSG } from '../../../../domain/settings-messages';
import { type ProfileDto, updateProfileInput } from '../../../../domain/schemas/me';
import { localTimeZone, timeZoneLabel, timeZoneList } from '../../../../domain/schemas/time-zone';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { OptionsSelect } from '../../../components/ui/options-select';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useUpdateProfile } from '../api/update-profile';
import { SettingsPanel } from './settings-section';

/** Full name and time zone (the avatar has a panel of its own: avatar-panel.tsx). */
export function ProfileForm({ profile }: { profile: ProfileDto }) {
  const browserZone = useMemo(localTimeZone, []);
  const initial = useMemo(
    () => ({ fullName: profile.user.fullName, timeZone: profile.timeZone ?? browserZone }),
    [profile, browserZone],
  );
  const form = useFormState(initial);
  const update = useUpdateProfile();
  const options = useMemo(() => {
    const zones = new Set(timeZoneList());
    // A zone this browser does not list (another engine saved it) stays choosable.
    zones.add(initial.timeZone);
    return [...zones].sort().map((zone) => ({ value: zone, label: timeZoneLabel(zone) }));
  }, [initial.timeZone]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(updateProfileInput);
    if (!body) return;
    await saveForm(form, () => update.mutateAsync(body), {
      saved: SETTINGS_MSG.profileUpdated,
      failed: SETTINGS_MSG.profileUpdateFailed,
    });
  };

  return (
    <SettingsPanel title="Your profile" description="How your teammates see you.">
      <form onSubmit={onSubmit} noValidate className="max-w-lg space-y-4" aria-label="Profile">
        <TextField label="Full name" autoComplete="name" {...form.bind('fullName')} />
        <OptionsSelect
          label="Time zone"
          options={options}
          {...form.bind('timeZone')}
          hint={
            profile.timeZone
              ? 'Your daily digest arrives at 08:00 in this time zone.'
              : "Your browser's time zone, not saved yet. Your daily digest arrives at 08:00 in the saved time zone (UTC until you save one)."
          }
        />
        <Button type="submit" isLoading={update.isPending}>
          {SETTINGS_MSG.saveChanges}
        </Button>
      </form>
    </SettingsPanel>
  );
}
