import type { Metadata } from "next";
import { PortalHeader } from "@/components/portal";
import { SignUpForm } from "./signup-form";

export const metadata: Metadata = { title: "Sign up" };
export const dynamic = "force-dynamic";

export default function SignUpPage() {
  return (
    <>
      <PortalHeader />
      <main className="mx-auto max-w-md px-6 py-12">
        <SignUpForm />
      </main>
    </>
  );
}
