import { Plus } from 'lucide-react';
import { Button, type ButtonProps } from './button';

/** A page's primary "New …" / "Create …" action: a plus before its label. */
export function CreateButton({ children, ...rest }: ButtonProps) {
  return (
    <Button {...rest}>
      <Plus className="h-4 w-4" aria-hidden />
      {children}
    </Button>
  );
}
