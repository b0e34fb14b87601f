import { MyWorkPage } from '../../features/my-work/components/my-work-page';
import { TaskCardView } from '../../features/tasks/components/task-card';

/** /my-work: the page, drawing the board's own card (composed here: a feature does not import another). */
export function MyWorkRoute() {
  return <MyWorkPage TaskCard={TaskCardView} />;
}
