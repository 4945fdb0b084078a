import { SiteHeader } from "@/components/site-chrome";

export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <>
      <SiteHeader wide />
      {children}
    </>
  );
}
