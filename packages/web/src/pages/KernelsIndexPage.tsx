// `/kernels/` ('Kernel Generation'): a signed-in user goes on to /kernels/generate-kernel.
import { Redirect } from 'wouter';
import { usePageTitle } from '../hooks/usePageTitle';

export default function KernelsIndexPage() {
  usePageTitle('Kernel Generation');
  return <Redirect to="/kernels/generate-kernel" replace />;
}
