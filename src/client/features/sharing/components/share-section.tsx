import { PageSection } from '../../../components/ui/page-section';
import { useShareSettings } from '../api/share-settings';
import { ShareButton } from './share-button';
import { SHARE_TEXT as T } from './share-texts';

/** Project settings → 'Share' (issue 40), for those who may edit the project: whether the public link is on, and 'Share'. */
export function ShareSection({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const settings = useShareSettings(projectId, canEdit);
  if (!canEdit) return null;
  return (
    <PageSection
      headingId="share-heading"
      title={T.share}
      description={T.sectionDescription}
      action={<ShareButton projectId={projectId} />}
    >
      {settings.data && (
        <p className="text-sm text-slate-700 dark:text-slate-200">{settings.data.enabled ? T.sectionOn : T.sectionOff}</p>
      )}
    </PageSection>
  );
}
