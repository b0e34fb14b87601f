import { Bell, CalendarDays, KeyRound, KeySquare, type LucideIcon, Palette, ShieldCheck, User } from 'lucide-react';
import { type MouseEvent, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useProfile } from '../api/get-profile';
import { useNotificationPreferences } from '../api/notification-preferences';
import { AppearancePanel } from './appearance-section';
import { AvatarPanel } from './avatar-panel';
import { ApiTokensSection } from './api-tokens-section';
import { CalendarFeedSection } from './calendar-feed-section';
import { ChangeEmailPanel } from './change-email-panel';
import { ChangePasswordPanel } from './change-password-panel';
import { DeleteAccountPanel } from './delete-account-panel';
import { Loaded } from './loaded';
import { NotificationPreferencesForm } from './notifications-section';
import { ProfileForm } from './profile-section';
import { SecuritySection } from './security-section';
import { SettingsSection } from './settings-section';

interface SectionLink {
  id: string;
  label: string;
  icon: LucideIcon;
}

const SECTIONS: SectionLink[] = [
  { id: 'profile', label: 'Profile', icon: User },
  { id: 'account', label: 'Account', icon: KeyRound },
  { id: 'security', label: 'Security', icon: ShieldCheck },
  { id: 'notifications', label: 'Notifications', icon: Bell },
  { id: 'appearance', label: 'Appearance', icon: Palette },
  { id: 'calendar-feed', label: 'Calendar feed', icon: CalendarDays },
  { id: 'api-tokens', label: 'API tokens', icon: KeySquare },
];

/** Moves to a section: scrolled into view, and its heading focused so that a keyboard or screen reader follows. */
function showSection(id: string) {
  document.getElementById(id)?.scrollIntoView({ block: 'start' });
  document.getElementById(`${id}-heading`)?.focus({ preventScroll: true });
}

/** /settings: the caller's profile, account, security, notifications and appearance, one section per #anchor. */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const { hash } = useLocation();
  const navigate = useNavigate();
  const current = hash.slice(1) || SECTIONS[0]!.id;
  const profile = useProfile();
  const preferences = useNotificationPreferences();

  // Arriving on /settings#section (the user menu's Profile, a bookmark): once the page has content, go there.
  const ready = Boolean(profile.data);
  useEffect(() => {
    if (ready && hash) showSection(hash.slice(1));
  }, [ready, hash]);

  const go = (e: MouseEvent<HTMLAnchorElement>, id: string) => {
    e.preventDefault();
    if (`#${id}` === hash) showSection(id);
    else navigate({ hash: id }, { replace: true });
  };

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Settings" subtitle="Your profile, account, security, notifications and appearance" />
      <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-8">
        <nav aria-label="Settings sections" className="mb-6 lg:mb-0">
          <ul className="flex flex-wrap gap-2 lg:sticky lg:top-0 lg:flex-col lg:gap-1">
            {SECTIONS.map(({ id, label, icon: Icon }) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  onClick={(e) => go(e, id)}
                  aria-current={current === id ? 'location' : undefined}
                  className={cn(
                    'flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium',
                    current === id
                      ? 'bg-brand-50 text-brand-700 dark:bg-indigo-950 dark:text-indigo-200'
                      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
                  )}
                >
                  <Icon className="h-4 w-4 shrink-0" aria-hidden />
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-10">
          <SettingsSection id="profile" title="Profile">
            <Loaded query={profile}>
              {(p) => (
                <>
                  <ProfileForm key={p.user.id} profile={p} />
                  <AvatarPanel user={p.user} />
                </>
              )}
            </Loaded>
          </SettingsSection>
          <SettingsSection id="account" title="Account">
            <Loaded query={profile}>
              {(p) => (
                <>
                  <ChangeEmailPanel profile={p} />
                  <ChangePasswordPanel hasPassword={p.hasPassword} />
                  <DeleteAccountPanel profile={p} />
                </>
              )}
            </Loaded>
          </SettingsSection>
          <SettingsSection id="security" title="Security">
            <SecuritySection />
          </SettingsSection>
          <SettingsSection id="notifications" title="Notifications">
            <Loaded query={preferences}>{(value) => <NotificationPreferencesForm value={value} />}</Loaded>
          </SettingsSection>
          <SettingsSection id="appearance" title="Appearance">
            <AppearancePanel />
          </SettingsSection>
          <CalendarFeedSection />
          <ApiTokensSection />
        </div>
      </div>
    </div>
  );
}
