import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { MSG } from '../../../../domain/messages';
import { type SsoSettingsDto, updateSsoSettingsInput } from '../../../../domain/schemas/sso';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyField } from '../../../components/ui/copy-field';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { Switch } from '../../../components/ui/switch';
import { errorText } from '../../../lib/errors';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useSsoSettings, useUpdateSsoSettings } from '../api/sso-settings';

const TEXT = {
  title: 'Single sign-on',
  description:
    'Sign-in through your SAML 2.0 identity provider (Okta, Entra ID, Keycloak, …). Give it the service provider details below, then enter its metadata here.',
  spTitle: 'For your identity provider',
  spHint: 'Crewboard signs its requests with the certificate in its metadata, and requires signed assertions.',
  spEntityId: 'Entity ID (audience)',
  spAcs: 'Assertion consumer service URL',
  spMetadata: 'Metadata URL',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the text and copy it yourself',
  how: 'Identity provider',
  howUrl: 'Metadata URL',
  howXml: 'Metadata XML',
  howFields: 'Entity ID, SSO URL and certificate',
  metadataUrl: 'Identity provider metadata URL',
  metadataXml: 'Identity provider metadata (XML)',
  entityId: 'Identity provider entity ID',
  ssoUrl: 'Identity provider SSO URL (HTTP-Redirect)',
  cert: 'Identity provider signing certificate (PEM)',
  enabled: 'Enable single sign-on',
  enabledHint: "The sign-in page shows 'Sign in with SSO'.",
  idpInitiated: 'Allow sign-in started at the identity provider',
  idpInitiatedHint: 'Off unless you need it: an unsolicited answer cannot be tied to a sign-in started here.',
  save: 'Save single sign-on',
  saved: 'Single sign-on settings saved',
  failed: 'Failed to save the single sign-on settings',
  fromEnvironment:
    'The identity provider is set by the server’s environment (SAML_IDP_METADATA_URL or SAML_IDP_METADATA), which overrides the fields below.',
  active: 'Single sign-on is on.',
  inactive: 'Single sign-on is off.',
} as const;

type How = 'url' | 'xml' | 'fields';

interface Values extends Record<string, unknown> {
  how: How;
  idpMetadataUrl: string;
  idpMetadataXml: string;
  idpEntityId: string;
  idpSsoUrl: string;
  idpCert: string;
  enabled: boolean;
  idpInitiated: boolean;
}

const valuesOf = (s: SsoSettingsDto | undefined): Values => ({
  how: s?.idpMetadataXml ? 'xml' : s?.idpEntityId || s?.idpSsoUrl || s?.idpCert ? 'fields' : 'url',
  idpMetadataUrl: s?.idpMetadataUrl ?? '',
  idpMetadataXml: s?.idpMetadataXml ?? '',
  idpEntityId: s?.idpEntityId ?? '',
  idpSsoUrl: s?.idpSsoUrl ?? '',
  idpCert: s?.idpCert ?? '',
  enabled: s?.enabled ?? false,
  idpInitiated: s?.idpInitiated ?? false,
});

/** The admin panel's 'Single sign-on' section (issue 41): the SP's details for the IdP, and the IdP's settings. */
export function SsoSection() {
  const settings = useSsoSettings();
  const headingId = useId();
  return (
    <Card className="p-4">
      <section aria-labelledby={headingId} data-section="sso" className="space-y-4">
        <div className="space-y-1">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
            <ShieldCheck className="h-5 w-5 text-brand-600 dark:text-indigo-300" aria-hidden />
            {TEXT.title}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">{TEXT.description}</p>
        </div>
        {settings.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {errorText(settings.error, MSG.loadFailed)}
          </p>
        ) : settings.data ? (
          <>
            <ServiceProvider sp={settings.data.sp} />
            <SsoForm settings={settings.data} />
          </>
        ) : (
          <div className="h-40 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" aria-hidden />
        )}
      </section>
    </Card>
  );
}

function ServiceProvider({ sp }: { sp: SsoSettingsDto['sp'] }) {
  const ids = { entity: useId(), acs: useId(), metadata: useId(), hint: useId() };
  const rows = [
    { id: ids.entity, label: TEXT.spEntityId, value: sp.entityId },
    { id: ids.acs, label: TEXT.spAcs, value: sp.acsUrl },
    { id: ids.metadata, label: TEXT.spMetadata, value: sp.metadataUrl },
  ];
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <h3 className="text-sm font-semibold">{TEXT.spTitle}</h3>
      <p id={ids.hint} className="text-sm text-slate-600 dark:text-slate-300">
        {TEXT.spHint}
      </p>
      {rows.map((row) => (
        <div key={row.id} className="space-y-1">
          <label htmlFor={row.id} className="block text-sm font-medium text-slate-800 dark:text-slate-100">
            {row.label}
          </label>
          <CopyField id={row.id} value={row.value} describedBy={ids.hint} labels={TEXT} />
        </div>
      ))}
    </div>
  );
}

function SsoForm({ settings }: { settings: SsoSettingsDto }) {
  const initial = useMemo(() => valuesOf(settings), [settings]);
  const form = useFormState<Values>(initial);
  const save = useUpdateSsoSettings();
  const [status, setStatus] = useState<SsoSettingsDto>(settings);
  const { values, setValues } = form;
  useEffect(() => setValues(initial), [initial, setValues]);
  useEffect(() => setStatus(settings), [settings]);
  const fromEnvironment = settings.source === 'environment';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { how, ...rest } = values;
    const body = form.validate(updateSsoSettingsInput, {
      enabled: rest.enabled,
      idpInitiated: rest.idpInitiated,
      idpMetadataUrl: how === 'url' ? rest.idpMetadataUrl : null,
      idpMetadataXml: how === 'xml' ? rest.idpMetadataXml : null,
      idpEntityId: how === 'fields' ? rest.idpEntityId : null,
      idpSsoUrl: how === 'fields' ? rest.idpSsoUrl : null,
      idpCert: how === 'fields' ? rest.idpCert : null,
    });
    if (!body) return;
    await saveForm(
      form,
      async () => {
        setStatus(await save.mutateAsync(body));
      },
      { saved: TEXT.saved, failed: TEXT.failed },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={TEXT.title} className="space-y-4">
      {fromEnvironment && (
        <p role="note" className="rounded-lg bg-slate-100 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {TEXT.fromEnvironment}
        </p>
      )}
      <SelectField
        label={TEXT.how}
        value={values.how}
        onChange={(e) => form.setField('how', e.target.value as How)}
        className="w-full sm:max-w-sm"
        disabled={fromEnvironment}
      >
        <option value="url">{TEXT.howUrl}</option>
        <option value="xml">{TEXT.howXml}</option>
        <option value="fields">{TEXT.howFields}</option>
      </SelectField>
      {values.how === 'url' && (
        <TextField
          label={TEXT.metadataUrl}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://idp.example.org/metadata"
          disabled={fromEnvironment}
          {...form.bind('idpMetadataUrl')}
        />
      )}
      {values.how === 'xml' && (
        <TextAreaField
          label={TEXT.metadataXml}
          rows={6}
          spellCheck={false}
          disabled={fromEnvironment}
          {...form.bind('idpMetadataXml')}
        />
      )}
      {values.how === 'fields' && (
        <div className="grid gap-3">
          <TextField label={TEXT.entityId} autoComplete="off" disabled={fromEnvironment} {...form.bind('idpEntityId')} />
          <TextField
            label={TEXT.ssoUrl}
            type="url"
            inputMode="url"
            autoComplete="off"
            disabled={fromEnvironment}
            {...form.bind('idpSsoUrl')}
          />
          <TextAreaField label={TEXT.cert} rows={5} spellCheck={false} disabled={fromEnvironment} {...form.bind('idpCert')} />
        </div>
      )}
      <Switch
        label={TEXT.enabled}
        description={TEXT.enabledHint}
        checked={values.enabled}
        onCheckedChange={(on) => form.setField('enabled', on)}
      />
      <Switch
        label={TEXT.idpInitiated}
        description={TEXT.idpInitiatedHint}
        checked={values.idpInitiated}
        onCheckedChange={(on) => form.setField('idpInitiated', on)}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" isLoading={save.isPending}>
          {TEXT.save}
        </Button>
        <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
          {status.configured ? TEXT.active : TEXT.inactive}
          {status.problem ? ` ${status.problem}` : ''}
        </p>
      </div>
    </form>
  );
}
