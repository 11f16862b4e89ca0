// Copies a text to the clipboard and says so.
import { toast } from 'sonner';
import { Button } from './Button';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Copied to the clipboard');
    } catch {
      toast.error('Could not copy: select the text and copy it by hand');
    }
  }
  return (
    <Button size="sm" onClick={() => void copy()}>
      {label}
    </Button>
  );
}
