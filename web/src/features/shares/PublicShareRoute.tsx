import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';

// Loaded on demand: the reader brings Tiptap, which the sign-in screens never need.
const PublicShareScreen = lazy(() => import('./PublicShareScreen'));

/** The public reader's route element, outside the signed-in shell (its own loading state). */
export function PublicShareRoute() {
  return (
    <Suspense
      fallback={
        <Center h="100vh">
          <Loader aria-label="Loading" />
        </Center>
      }
    >
      <PublicShareScreen />
    </Suspense>
  );
}
