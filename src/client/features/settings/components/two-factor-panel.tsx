import { Copy } from 'lucide-react';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  authCodeForm,
  passwordConfirmForm,
  SECURITY_MSG,
  type TwoFactorReauthInput,
  twoFactorReauthInput,
  type TwoFactorSetupDto,
  type TwoFactorStatusDto,
} from '../../../../domain/schemas/security';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { PasswordField } from '../../../components/ui/password-field';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useDisableTwoFactor, useEnableTwoFactor, useRegenerateRecoveryCodes, useSetupTwoFactor } from '../api/two-factor';
import { CurrentPasswordField, withCurrentPassword } from './current-password-field';
import { SettingsPanel } from './settings-section';

type Stage =
  | { step: 'summary'; returning: boolean }
  | { step: 'confirm-setup' }
  | { step: 'setup'; setup: TwoFactorSetupDto }
  | { step: 'codes'; codes: string[]; replaced: boolean }
  | { step: 'regenerate' }
  | { step: 'disable' };

const TITLE = 'Two-factor authentication';

/**
 * Two-factor sign-in: off → the password again → set up (QR code and the key in text) → a code from the app turns it
 * on → the recovery codes, shown this once → on; new recovery codes after the password; turned off with a code or
 * the password. An account without a password (Google sign-in alone) is not asked for one.
 */
export function TwoFactorPanel({ status, hasPassword }: { status: TwoFactorStatusDto; hasPassword: boolean }) {
  const [stage, setStage] = useState<Stage>({ step: 'summary', returning: false });
  const setup = useSetupTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const back = () => setStage({ step: 'summary', returning: true });

  /** True when the setup started (a failure is shown: on the password field, and as a toast). */
  const begin = (input: TwoFactorReauthInput, form: FieldErrorsSink = NO_FORM) =>
    saveForm(form, async () => setStage({ step: 'setup', setup: await setup.mutateAsync(input) }), {
      failed: SECURITY_MSG.twoFactorSetupFailed,
    });

  return (
    <SettingsPanel
      title={TITLE}
      description="Signing in asks for a code from an authenticator app on your phone, after your password."
    >
      {stage.step === 'confirm-setup' ? (
        <ReauthForm
          label="Set up two-factor authentication"
          submitLabel="Continue"
          description="Confirm with your password to set up two-factor authentication."
          hasPassword={hasPassword}
          isLoading={setup.isPending}
          onSubmit={begin}
          onCancel={back}
        />
      ) : stage.step === 'setup' ? (
        <EnableForm
          setup={stage.setup}
          onEnabled={(codes) => setStage({ step: 'codes', codes, replaced: false })}
          onCancel={back}
        />
      ) : stage.step === 'codes' ? (
        <RecoveryCodes codes={stage.codes} replaced={stage.replaced} onDone={back} />
      ) : stage.step === 'regenerate' ? (
        <ReauthForm
          label={SECURITY_MSG.regenerateRecoveryCodes}
          submitLabel="Generate new codes"
          description={
            hasPassword
              ? 'Confirm with your password. Your current recovery codes stop working.'
              : 'Your current recovery codes stop working.'
          }
          hasPassword={hasPassword}
          isLoading={regenerate.isPending}
          onSubmit={async (input, form) => {
            let codes: string[] = [];
            const done = await saveForm(
              form,
              async () => {
                codes = (await regenerate.mutateAsync(input)).recoveryCodes;
              },
              { saved: SECURITY_MSG.recoveryCodesRegenerated, failed: SECURITY_MSG.recoveryCodesRegenerateFailed },
            );
            if (done) setStage({ step: 'codes', codes, replaced: true });
            return done;
          }}
          onCancel={back}
        />
      ) : stage.step === 'disable' ? (
        <DisableForm onDone={back} onCancel={back} />
      ) : status.enabled ? (
        <div className="space-y-3">
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <Badge tone="success">On</Badge>
            {status.recoveryCodesLeft === 1 ? '1 recovery code left.' : `${status.recoveryCodesLeft} recovery codes left.`}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" autoFocus={stage.returning} onClick={() => setStage({ step: 'regenerate' })}>
              {SECURITY_MSG.regenerateRecoveryCodes}
            </Button>
            <Button variant="secondary" onClick={() => setStage({ step: 'disable' })}>
              Turn off two-factor authentication
            </Button>
          </div>
        </div>
      ) : (
        <div className="space-y-3">
          <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <Badge>Off</Badge>
            Only your password protects your account.
          </p>
          <Button
            autoFocus={stage.returning}
            isLoading={setup.isPending}
            onClick={() => (hasPassword ? setStage({ step: 'confirm-setup' }) : void begin({}))}
          >
            Set up two-factor authentication
          </Button>
        </div>
      )}
    </SettingsPanel>
  );
}

type FieldErrorsSink = { showFieldErrors: (fields: Record<string, string>) => unknown };
/** No form (setup started without a password to confirm): no field to tell a failure on. */
const NO_FORM: FieldErrorsSink = { showFieldErrors: () => false };

/** 'Current password' (when the account has one) before a change of the second factor; true when it went through. */
function ReauthForm({
  label,
  submitLabel,
  description,
  hasPassword,
  isLoading,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  description: string;
  hasPassword: boolean;
  isLoading: boolean;
  onSubmit: (input: TwoFactorReauthInput, form: FieldErrorsSink) => Promise<boolean>;
  onCancel: () => void;
}) {
  const initial = useMemo(() => ({ currentPassword: '' }), []);
  const form = useFormState(initial);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(twoFactorReauthInput, withCurrentPassword(form.values, hasPassword));
    if (body) await onSubmit(body, form);
  };
  return (
    <form onSubmit={submit} noValidate className="max-w-sm space-y-4" aria-label={label}>
      <p className="text-sm text-slate-700 dark:text-slate-200">{description}</p>
      <CurrentPasswordField hasPassword={hasPassword} autoFocus {...form.bind('currentPassword')} />
      <SubmitOrCancel label={submitLabel} isLoading={isLoading} onCancel={onCancel} autoFocus={!hasPassword} />
    </form>
  );
}

/** 'ABCD EFGH …': the key in groups of four, easier to type into an app. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function EnableForm({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetupDto;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const initial = useMemo(() => ({ code: '' }), []);
  const form = useFormState(initial);
  const enable = useEnableTwoFactor();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(authCodeForm);
    if (!body) return;
    let codes: string[] = [];
    const enabled = await saveForm(
      form,
      async () => {
        codes = (await enable.mutateAsync(body.code)).recoveryCodes;
      },
      { saved: SECURITY_MSG.twoFactorEnabled, failed: SECURITY_MSG.twoFactorSetupFailed },
    );
    if (enabled) onEnabled(codes);
  };

  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-200">
        <li>Scan the QR code with an authenticator app, or type the setup key into it.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-wrap items-center gap-6">
        <img src={setup.qr} alt="QR code for your authenticator app" width={176} height={176} className="rounded-lg bg-white" />
        <dl className="min-w-0 space-y-1">
          <dt className="text-sm font-medium text-slate-700 dark:text-slate-200">Setup key</dt>
          <dd>
            <code className="break-all font-mono text-sm">{grouped(setup.secret)}</code>
          </dd>
        </dl>
      </div>
      <form onSubmit={onSubmit} noValidate className="max-w-xs space-y-4" aria-label="Turn on two-factor authentication">
        <TextField
          label={SECURITY_MSG.authCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          {...form.bind('code')}
        />
        <SubmitOrCancel label="Turn on" isLoading={enable.isPending} onCancel={onCancel} />
      </form>
    </div>
  );
}

function RecoveryCodes({ codes, replaced, onDone }: { codes: string[]; replaced: boolean; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success(SECURITY_MSG.recoveryCodesCopied);
    } catch {
      toast.error(SECURITY_MSG.copyFailed);
    }
  };

  return (
    <div className="space-y-4">
      <h4 ref={heading} tabIndex={-1} className="font-semibold focus:outline-none">
        Save your recovery codes
      </h4>
      <p className="text-sm text-slate-700 dark:text-slate-200">
        If you lose your phone, each of these codes signs you in once instead of a code from the app. Keep them somewhere safe:
        they are shown only now.{replaced && ' Your previous recovery codes no longer work.'}
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid max-w-sm grid-cols-2 gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 font-mono text-sm dark:border-slate-700 dark:bg-slate-800"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          <Copy className="h-4 w-4" aria-hidden />
          Copy codes
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

function DisableForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [withPassword, setWithPassword] = useState(false);
  const initial = useMemo(() => ({ code: '', password: '' }), []);
  const form = useFormState(initial);
  const disable = useDisableTwoFactor();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const { code, password } = form.values;
    const body = withPassword ? form.validate(passwordConfirmForm, { password }) : form.validate(authCodeForm, { code });
    if (!body) return;
    const saved = await saveForm(form, () => disable.mutateAsync(body), {
      saved: SECURITY_MSG.twoFactorDisabled,
      failed: SECURITY_MSG.twoFactorDisableFailed,
    });
    if (saved) onDone();
  };

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-sm space-y-4" aria-label="Turn off two-factor authentication">
      <p className="text-sm text-slate-700 dark:text-slate-200">
        {withPassword
          ? 'Confirm with your password.'
          : 'Confirm with a code from your authenticator app, or with a recovery code.'}
      </p>
      {withPassword ? (
        <PasswordField label="Password" autoComplete="current-password" autoFocus {...form.bind('password')} />
      ) : (
        <TextField label={SECURITY_MSG.authCode} autoComplete="one-time-code" autoFocus {...form.bind('code')} />
      )}
      <Button variant="link" onClick={() => setWithPassword((v) => !v)}>
        {withPassword ? 'Use an authentication code instead' : 'Use your password instead'}
      </Button>
      <SubmitOrCancel label="Turn off" danger isLoading={disable.isPending} onCancel={onCancel} />
    </form>
  );
}

/** A form's submit button, and 'Cancel' back to the summary. */
function SubmitOrCancel({
  label,
  danger,
  isLoading,
  onCancel,
  autoFocus,
}: {
  label: string;
  danger?: boolean;
  isLoading: boolean;
  onCancel: () => void;
  autoFocus?: boolean;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" variant={danger ? 'danger' : 'primary'} isLoading={isLoading} autoFocus={autoFocus}>
        {label}
      </Button>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
