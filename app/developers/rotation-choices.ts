/** The overlaps the portal offers for a secret rotation (seconds, label); the API takes any from 0 to a week. */
export const ROTATION_CHOICES = [["0", "at once"], ["3600", "in an hour"], ["86400", "in a day"], ["604800", "in a week"]] as const;
