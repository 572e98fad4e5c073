// The first $first sections of each law version in $versions, with the head of their text:
// retrieval reads a law's scope sections from how they open ("พระราชบัญญัตินี้ไม่ใช้บังคับแก่",
// "This Regulation applies to"). Read once per law version (a version never changes).
MATCH (s:Section)
WHERE s.law_version IN $versions AND 0 <= s.order <= $first
RETURN s.law_version AS law_version, s.key AS section, s.order AS order,
       substring(s.text, 0, 160) AS head
