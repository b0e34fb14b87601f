import { NOTIFICATION_PREFERENCE_KINDS } from '../../../../domain/constants';
import { NOTIFICATION_PREFERENCE_LABELS } from '../../../../domain/settings-messages';
import type { NotificationChannels, NotificationPreferencesDto } from '../../../../domain/schemas/me';
import { Switch } from '../../../components/ui/switch';
import { useSaveNotificationPreferences } from '../api/notification-preferences';
import { SettingsPanel } from './settings-section';

const CHANNELS = [
  { key: 'inApp', label: 'In-app' },
  { key: 'email', label: 'Email' },
] as const satisfies readonly { key: keyof NotificationChannels; label: string }[];

/** Per kind, in-app and email; and the daily digest. Each switch saves at once. */
export function NotificationPreferencesForm({ value }: { value: NotificationPreferencesDto }) {
  const save = useSaveNotificationPreferences();
  const set = (kind: (typeof NOTIFICATION_PREFERENCE_KINDS)[number], channel: keyof NotificationChannels, on: boolean) =>
    save.mutate({ ...value, preferences: { ...value.preferences, [kind]: { ...value.preferences[kind], [channel]: on } } });

  return (
    <>
      <SettingsPanel title="What you are told" description="Choose, for each kind of event, where you hear about it.">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Notifications by kind and channel</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
              <th scope="col" className="py-2 pr-3 font-medium">
                Event
              </th>
              {CHANNELS.map((c) => (
                <th key={c.key} scope="col" className="w-20 px-2 py-2 text-center font-medium">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_PREFERENCE_KINDS.map((kind) => (
              <tr key={kind} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <th scope="row" className="py-3 pr-3 font-normal text-slate-800 dark:text-slate-100">
                  {NOTIFICATION_PREFERENCE_LABELS[kind]}
                </th>
                {CHANNELS.map((c) => (
                  <td key={c.key} className="px-2 py-3">
                    <Switch
                      className="justify-center"
                      srOnlyLabel
                      label={`${NOTIFICATION_PREFERENCE_LABELS[kind]}: ${c.label}`}
                      checked={value.preferences[kind][c.key]}
                      onCheckedChange={(on) => set(kind, c.key, on)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </SettingsPanel>
      <SettingsPanel title="Daily digest">
        <Switch
          label="Send me a daily digest"
          description="Every morning at 08:00 in your time zone: your tasks due today and those overdue."
          checked={value.digestEnabled}
          onCheckedChange={(digestEnabled) => save.mutate({ ...value, digestEnabled })}
        />
      </SettingsPanel>
    </>
  );
}
