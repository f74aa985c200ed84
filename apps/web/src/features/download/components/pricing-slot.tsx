import { useEffect, useState } from 'react';
import { fetchPricing, type Pricing } from '../api/pricing.ts';
import { PricingSection } from './pricing-section.tsx';

/**
 * Where the pricing section goes. Its data is asked for once the page has mounted, so the first
 * paint waits for nothing; until it is there an empty box of about the section's height holds its
 * place (below the fold, and it keeps what follows from jumping). If the plans cannot be read, or
 * nothing is on sale, the section is left out without a word: the page is about the downloads.
 */
export function PricingSlot({ signedIn }: { signedIn: boolean }) {
  const [pricing, setPricing] = useState<Pricing | 'loading' | 'hidden'>('loading');

  useEffect(() => {
    let current = true;
    fetchPricing().then(
      (loaded) => {
        if (current) setPricing(loaded.plans.length > 0 ? loaded : 'hidden');
      },
      (error: unknown) => {
        console.warn('The prices could not be loaded', error);
        if (current) setPricing('hidden');
      },
    );
    return () => {
      current = false;
    };
  }, []);

  if (pricing === 'hidden') return null;
  if (pricing === 'loading') return <div className="pricing-placeholder" />;
  return <PricingSection pricing={pricing} signedIn={signedIn} />;
}
