/**
 * Escalations (DESIGN.md §3 rule 12, issue 7): when the machine cannot know or cannot go on, a
 * person decides from a compact, secret-free {@link dev.sluice.core.escalation.Dossier}, choosing
 * one of the {@link dev.sluice.core.escalation.Option}s that are safe now. Raised, stored and
 * carried out by {@link dev.sluice.core.Sluice} on its journal.
 */
package dev.sluice.core.escalation;
