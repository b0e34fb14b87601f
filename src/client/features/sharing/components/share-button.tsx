import { useQuery } from '@tanstack/react-query';
import { Share2 } from 'lucide-react';
import { useState } from 'react';
import { canEditProject } from '../../../../domain/permissions';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { ShareDialog } from './share-dialog';
import { SHARE_TEXT as T } from './share-texts';

/**
 * 'Share' for a project, shown only to those who may edit it (its team's owner and admins), opening the sharing
 * dialog. The project comes from the projects list (the board and the settings page have it in the cache already).
 */
export function ShareButton({ projectId, variant = 'secondary' }: { projectId: string; variant?: ButtonProps['variant'] }) {
  const projects = useQuery(projectsQueryOptions());
  const project = projects.data?.find((p) => p.id === projectId);
  const [open, setOpen] = useState(false);
  if (!project || !canEditProject(project.myRole)) return null;
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        <Share2 className="h-4 w-4" aria-hidden />
        {T.share}
      </Button>
      <ShareDialog projectId={project.id} projectName={project.name} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
