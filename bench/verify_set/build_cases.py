"""Source of ``cases.jsonl`` for the independent claim-verifier set (issue 12).

Each case is (kind, contradicted, anchor, claim) per note: ``contradicted`` is None for a
supported claim, True/False for an unsupported one (True when one span of the note states
a conflicting value, polarity, modality or role). ``anchor`` is a substring found on
exactly one line of the note (or a pair of them, for a span of lines): the supporting or conflicting line (``evidence_lines``), or
the related line of an unsupported, non-contradicted claim (``related_lines``); None for
claims about things the note never mentions.

    python bench/verify_set/build_cases.py     # rewrites bench/verify_set/cases.jsonl
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTES = HERE / "notes"

SUPPORTED_KINDS = {
    "verbatim", "near-verbatim-inflection", "near-verbatim-reorder", "unit-equivalence",
    "number-word", "date-format", "paraphrase", "synonym", "table-cell",
}
UNSUPPORTED_KINDS = {
    "role-swap", "modality", "tense", "negation-dropped", "scope", "unit-changed", "antonym",
    "causal", "quantifier", "version", "table-wrong-row", "cjk-object", "cjk-frequency",
    "cjk-other", "number-changed", "entity-swap", "unrelated",
}
SPLITS = {
    "oncall-runbook-payments.md": "tune",
    "api-spec-orders-v2.md": "tune",
    "leaflet-cetirizine.md": "tune",
    "hr-leave-policy.md": "tune",
    "lab-procedure-dna-extraction.md": "tune",
    "travel-policy.md": "tune",
    "zh-data-backup.md": "tune",
    "board-minutes-2026-02.md": "test",
    "laptop-procurement-comparison.md": "test",
    "lease-office-clauses.md": "test",
    "release-notes-atlas.md": "test",
    "network-upgrade-branch-offices.md": "test",
    "zh-safety-meeting-minutes.md": "test",
    "ja-remote-work-rules.md": "test",
}

S = None  # supported
T, F = True, False  # unsupported: contradicted or not

CASES = {}

CASES["oncall-runbook-payments.md"] = [
    ("verbatim", S, "must acknowledge a page within 5 minutes", "The primary on-call engineer must acknowledge a page within 5 minutes."),
    ("verbatim", S, "Card refunds are handled", "Card refunds are handled by the Billing team and are out of scope."),
    ("verbatim", S, "A failover must be approved", "A failover must be approved by the incident commander."),
    ("near-verbatim-inflection", S, "must acknowledge a page within 5 minutes", "The primary on-call engineer must acknowledge pages within 5 minutes."),
    ("near-verbatim-inflection", S, "The secondary on-call engineer may escalate", "The secondary on-call engineers may escalate to the incident commander at any time."),
    ("near-verbatim-reorder", S, "The postmortem was written", "The postmortem was reviewed by Priya Raman and written by Tom Becker."),
    ("near-verbatim-reorder", S, "This runbook covers", "This runbook covers the payments gateway in staging and production."),
    ("unit-equivalence", S, "Promote the standby database", "Promotion of the standby database in eu-central-1 takes about 1.5 minutes."),
    ("unit-equivalence", S, "Switch DNS", "The DNS TTL is 1 minute."),
    ("number-word", S, "On-call shifts last 7 days", "On-call shifts last seven days."),
    ("date-format", S, "The current key was created", "The current signing key expires on 1 February 2026."),
    ("date-format", S, "Last reviewed:", "The runbook was last reviewed on January 19, 2026 by Marco Ilic."),
    ("paraphrase", S, "A failover must be approved", "Failovers need the approval of the incident commander."),
    ("synonym", S, "Workers may be restarted", "Workers can be restarted one at a time without approval."),
    ("role-swap", T, "The rollback to 4.11.3", "The rollback to 4.11.3 was approved by Tom Becker and carried out by Priya Raman."),
    ("role-swap", T, "The postmortem was written", "The postmortem was written by Priya Raman and reviewed by Tom Becker."),
    ("modality", T, "On-call engineers must not rotate", "On-call engineers may rotate the signing key themselves."),
    ("modality", F, "Workers may be restarted", "Workers must be restarted one at a time."),
    ("tense", F, "A migration of the queue", "The queue has been migrated from RabbitMQ to Kafka."),
    ("tense", F, "The signing key is rotated", "The signing key was rotated on 2026-02-01."),
    ("negation-dropped", T, "no payments were lost", "Payments were lost in the incident of 2025-12-08."),
    ("negation-dropped", T, "Engineers in their first 3 months", "Engineers in their first 3 months must take primary on-call."),
    ("scope", F, "The secondary on-call engineer may escalate", "Any on-call engineer may escalate to the incident commander at any time."),
    ("unit-changed", T, "PGWHighLatency", "PGWHighLatency fires when p99 latency exceeds 800 s for 10 minutes."),
    ("antonym", T, "PGWErrorRate", "PGWErrorRate fires when the 5xx rate is below 2% for 5 minutes."),
    ("causal", F, "the queue backlog grew after", "The queue backlog grew because of a deploy of pgw 4.12."),
    ("quantifier", T, "PGWQueueBacklog", "PGWQueueBacklog fires when up to 50,000 messages wait in the settlement queue."),
    ("version", T, "The rollback to 4.11.3", "The rollback to 4.1.3 was approved by Priya Raman and carried out by Tom Becker."),
    ("version", T, "the queue backlog grew after", "In the incident of 2025-12-08, the queue backlog grew after a deploy of pgw 4.1.2."),
    ("number-changed", T, "Switch DNS", "The DNS TTL is 600 seconds."),
    ("number-changed", T, "batch size of 500", "Since January 2026 the settlement run uses a batch size of 5000 instead of 2000."),
    ("entity-swap", T, "The signing key is rotated", "The signing key is rotated every 90 days by the Billing team."),
    ("unrelated", F, None, "The payments gateway is written in Go."),
]

CASES["api-spec-orders-v2.md"] = [
    ("verbatim", S, "Idempotency-Key", "Clients must send an `Idempotency-Key` header with every POST request."),
    ("verbatim", S, "Request bodies must not exceed", "Request bodies must not exceed 1 MB."),
    ("verbatim", S, "A 429 response always carries", "A 429 response always carries a `Retry-After` header in seconds."),
    ("near-verbatim-reorder", S, "Webhooks are sent for the events", "Webhooks are sent for the events order.shipped, order.cancelled and order.created."),
    ("near-verbatim-inflection", S, "Cursors expire", "A cursor expires after 10 minutes."),
    ("unit-equivalence", S, "Cursors expire", "Cursors expire after 600 seconds."),
    ("unit-equivalence", S, "Failed deliveries are retried", "Failed deliveries are retried up to 8 times over 1 day."),
    ("number-word", S, "Failed deliveries are retried", "Failed deliveries are retried up to eight times over 24 hours."),
    ("date-format", S, "Version 1 will be switched off", "Version 1 will be switched off on 2026-09-30."),
    ("date-format", S, "Status: approved", "The specification was approved by the API review board on 2 March 2026."),
    ("table-cell", S, "| GET | /v2/orders/{id} |", "GET /v2/orders/{id} has a rate limit of 1200 requests/min."),
    ("table-cell", S, "/cancel |", "POST /v2/orders/{id}/cancel requires the orders:cancel scope."),
    ("table-cell", S, "| 409 |", "Status 409 has the code order_closed."),
    ("table-cell", S, "| 404 |", "Status 404 has the code order_not_found."),
    ("synonym", S, "All requests must use HTTPS", "Plain HTTP requests are refused with status 403."),
    ("paraphrase", S, "If-Match", "The `If-Match` header is optional for PATCH requests."),
    ("synonym", S, "Cancelling an order no longer deletes it", "Cancelled orders stay readable for 2 years."),
    ("paraphrase", S, "List endpoints return at most 100 items", "By default a page of a list endpoint holds 25 items."),
    ("table-wrong-row", T, "| PATCH |", "PATCH /v2/orders/{id} has a rate limit of 120 requests/min."),
    ("table-wrong-row", T, "/events |", "GET /v2/orders/{id}/events requires the orders:write scope."),
    ("table-wrong-row", T, "| 503 |", "Status 503 has the code rate_limited."),
    ("modality", T, "If-Match", "Clients must send an `If-Match` header with PATCH requests."),
    ("modality", T, "Idempotency-Key", "Clients may send an `Idempotency-Key` header with POST requests; it is optional."),
    ("negation-dropped", T, "Cancelling an order no longer deletes it", "Cancelling an order deletes it."),
    ("quantifier", T, "List endpoints return at most 100 items", "List endpoints return at least 100 items per page."),
    ("version", T, "Version 1 will be switched off", "Version 2 will be switched off on 30 September 2026."),
    ("causal", F, "customer_email", "The `customer_email` field was removed from order responses because of a data breach."),
    ("role-swap", T, "Status: approved", "The specification was written by Arjun Mehta and reviewed by Lena Fischer."),
    ("unit-changed", T, "A webhook delivery times out", "A webhook delivery times out after 5 minutes."),
    ("number-changed", T, "Failed deliveries are retried", "Failed deliveries are retried up to 8 times over 48 hours."),
    ("antonym", T, "The `status` field", "The `status` field now uses uppercase values."),
    ("entity-swap", T, "Webhooks are sent for the events", "Webhooks are sent for the events order.created, order.paid and order.cancelled."),
    ("scope", F, "Idempotency-Key", "Clients must send an `Idempotency-Key` header with every request, including GET requests."),
    ("tense", F, "Version 1 will be switched off", "Version 1 was switched off on 30 September 2026."),
    ("unrelated", F, None, "The Orders API supports GraphQL queries."),
]

CASES["leaflet-cetirizine.md"] = [
    ("verbatim", S, "Cetirizine is an antihistamine.", "Cetirizine is an antihistamine."),
    ("verbatim", S, "Avoid drinking alcohol", "Avoid drinking alcohol while taking cetirizine."),
    ("verbatim", S, "should be avoided in pregnant", "Cetirizine should be avoided in pregnant women."),
    ("near-verbatim-reorder", S, "Symptoms of overdose", "Symptoms of overdose include dizziness, confusion, restlessness, tiredness and diarrhoea."),
    ("near-verbatim-reorder", S, "Common side effects", "Common side effects include headache, drowsiness, nausea and dry mouth."),
    ("near-verbatim-inflection", S, "Swallow the tablet", "Swallow the tablets with a glass of water."),
    ("unit-equivalence", S, "Store below 25 °C", "Store below 77 °F in the original package."),
    ("unit-equivalence", S, "Stop taking cetirizine 3 days", "Stop taking cetirizine 72 hours before an allergy skin test."),
    ("number-word", S, "Each blister holds 10 tablets", "A carton holds thirty tablets."),
    ("number-word", S, "Each blister holds 10 tablets", "Each blister holds ten tablets."),
    ("paraphrase", S, "Children aged 6 to 12 years", "Children aged 6 to 12 years take half a tablet twice a day."),
    ("paraphrase", S, "Adults and adolescents over 12 years", "For adults and adolescents over 12 years, the recommended dose is one tablet of 10 mg once a day."),
    ("synonym", S, "Swallow the tablet", "The tablet can be taken with or without meals."),
    ("synonym", S, "It is also used to relieve chronic hives", "Cetirizine is also used to relieve chronic urticaria."),
    ("date-format", S, "last revised in October 2025", "This leaflet was last revised in 2025-10."),
    ("scope", F, "In adults and children aged 6 years and over", "Cetirizine is used to relieve allergic rhinitis in people of all ages."),
    ("scope", T, "Children aged 6 to 12 years", "The recommended dose for all patients is 10 mg once daily."),
    ("modality", T, "severe kidney disease", "Patients with severe kidney disease may take cetirizine."),
    ("modality", F, "If you feel drowsy", "You must not drive while taking cetirizine."),
    ("negation-dropped", T, "does not usually impair", "At the recommended dose, cetirizine usually impairs alertness."),
    ("negation-dropped", T, "not recommended for children under 6", "Cetirizine is recommended for children under 6 years."),
    ("quantifier", T, "Common side effects", "Common side effects affect at least 1 in 10 people."),
    ("unit-changed", T, "Store below 25 °C", "Store below 25 °F in the original package."),
    ("number-changed", T, "moderate kidney impairment", "Patients with moderate kidney impairment take 10 mg once daily."),
    ("number-changed", T, "last revised in October 2025", "This leaflet was last revised in October 2024."),
    ("antonym", T, "Store below 25 °C", "Store above 25 °C in the original package."),
    ("causal", F, "epilepsy", "Cetirizine causes convulsions in patients with epilepsy."),
    ("entity-swap", F, "hydroxyzine", "Do not take cetirizine if you are allergic to ibuprofen."),
    ("unrelated", F, None, "Cetirizine should be taken at bedtime."),
]

CASES["hr-leave-policy.md"] = [
    ("verbatim", S, "Full-time employees receive 28", "Full-time employees receive 28 days of paid annual leave per calendar year."),
    ("verbatim", S, "doctor's certificate", "A doctor's certificate is required from the fourth calendar day of sickness."),
    ("near-verbatim-inflection", S, "Managers should answer", "Managers should answer leave requests within 3 working days."),
    ("near-verbatim-reorder", S, "death of a spouse", "Employees receive 3 days of paid leave on the death of a parent, child or spouse."),
    ("near-verbatim-reorder", S, "A sabbatical must be approved", "A sabbatical must be approved by both People Operations and the line manager."),
    ("number-word", S, "Full-time employees receive 28", "Full-time employees receive twenty-eight days of paid annual leave per calendar year."),
    ("number-word", S, "Partners receive 10 days", "Partners receive ten days of paid partner leave."),
    ("unit-equivalence", S, "Full pay continues", "Full pay continues for up to 42 days per illness."),
    ("date-format", S, "Approved by Grace Mwangi", "The policy was approved by Grace Mwangi on 5 January 2026."),
    ("date-format", S, "Applies from 1 February 2026", "The policy applies from 2026-02-01."),
    ("paraphrase", S, "Contractors are not covered", "The leave policy does not apply to contractors."),
    ("paraphrase", S, "Leave may not be paid out", "Unused leave cannot be paid out instead of taken, except when employment ends."),
    ("synonym", S, "own wedding", "Employees get 2 days of paid leave for their own wedding."),
    ("synonym", S, "Parental leave must be requested", "Parental leave must be requested in writing at least 7 weeks before it starts."),
    ("scope", T, "Part-time employees receive leave pro rata", "All employees receive 28 days of paid annual leave per calendar year."),
    ("scope", F, "Applies from 1 February 2026", "The policy applies to all employees in Germany, Austria and Switzerland."),
    ("modality", T, "probation period", "Employees in their probation period may take more than 5 days of leave before probation ends."),
    ("modality", F, "Managers should answer", "Managers must answer a leave request within 3 working days."),
    ("tense", T, "previously 31 May", "The expiry date for carried-over days is 31 May."),
    ("tense", F, "The next review is due", "The next review of the policy took place in January 2027."),
    ("negation-dropped", T, "Sick days during annual leave", "Sick days during annual leave are counted as leave if a certificate is provided."),
    ("quantifier", T, "Up to 5 unused days", "At least 5 unused days may be carried over to the next year."),
    ("number-changed", T, "tops up", "The company tops up the statutory parental allowance to 80% of net salary for the first 12 weeks."),
    ("role-swap", T, "The partner leave was extended", "The partner leave was extended from 10 to 5 days."),
    ("role-swap", T, "Version 4 raised", "Version 4 raised annual leave from 28 to 26 days."),
    ("version", T, "Version 4 raised", "Version 3 raised annual leave from 26 to 28 days."),
    ("version", T, "volunteering days were introduced", "The volunteering days were introduced in version 3."),
    ("causal", F, "The partner leave was extended", "The partner leave was extended because the statutory rules changed."),
    ("entity-swap", T, "Approved by Grace Mwangi", "The policy was approved by Rafael Souza."),
    ("unrelated", F, None, "Employees may work from home two days a week."),
]

CASES["lab-procedure-dna-extraction.md"] = [
    ("verbatim", S, "guanidine", "Lysis buffer AL contains guanidine hydrochloride; it must not be mixed with bleach."),
    ("verbatim", S, "negative extraction control", "A negative extraction control (water instead of blood) must be included in every run."),
    ("verbatim", S, "4. Incubate at 56", "Incubate at 56 °C for 10 minutes."),
    ("near-verbatim-reorder", S, "Lab coats, gloves", "Gloves, lab coats and safety glasses must be worn at all times."),
    ("near-verbatim-inflection", S, "ratio below 1.7", "A sample with a ratio below 1.7 should be re-extracted."),
    ("unit-equivalence", S, "2. Add 200 µl of whole blood", "Add 0.2 ml of whole blood."),
    ("unit-equivalence", S, "1. Pipette 20", "Pipette 20 µl proteinase K into the bottom of a 1,500 µl tube."),
    ("number-word", S, "The whole procedure takes", "The whole procedure takes about 45 minutes for twelve samples."),
    ("number-word", S, "Avoid more than 3", "Avoid more than three freeze–thaw cycles."),
    ("date-format", S, "Version 2.3, effective", "Version 2.3 of the procedure is effective from February 10, 2026."),
    ("table-cell", S, "| Proteinase K |", "Proteinase K is stored at 2–8 °C."),
    ("table-cell", S, "| Buffer AW2 |", "Buffer AW2 needs 30 ml ethanol added before first use."),
    ("table-cell", S, "| Buffer AW1 |", "Buffer AW1 is stable for 6 months after opening."),
    ("paraphrase", S, "A260/A280 ratio between", "An A260/A280 ratio from 1.7 to 1.9 is acceptable."),
    ("paraphrase", S, "molecular lab only", "The microbiology lab does not use this procedure; it uses SOP-LAB-090."),
    ("synonym", S, "long-term biobanking", "DNA for long-term biobanking is kept at −80 °C."),
    ("table-wrong-row", T, "| Buffer AW1 |", "Buffer AW1 needs 30 ml ethanol added before first use."),
    ("table-wrong-row", T, "| Proteinase K |", "Proteinase K is stable for 6 months after opening."),
    ("unit-changed", T, "4. Incubate at 56", "Incubate at 56 °F for 10 minutes."),
    ("unit-changed", T, "2. Add 200 µl of whole blood", "Add 200 ml of whole blood."),
    ("number-changed", T, "10. Centrifuge", "Centrifuge at 6,000 × g for 3 minutes to elute the DNA."),
    ("version", T, ("## Changes in version 2.3", "shortened from 20 to 10"), "The incubation at 56 °C was shortened from 20 to 10 minutes in version 2.1."),
    ("version", T, "Version 2.3, effective", "Version 3.2 of SOP-LAB-114 is effective from 2026-02-10."),
    ("role-swap", T, "Author: Dr. Miriam Osei", "The procedure was written by Dr. Hugo Lambert and approved by Dr. Miriam Osei."),
    ("role-swap", T, "AW2 centrifugation speed", "The AW2 centrifugation speed was raised from 20,000 × g to 14,000 × g."),
    ("antonym", T, "ratio below 1.7", "Samples with a ratio above 1.7 should be re-extracted."),
    ("antonym", T, "| Buffer AL |", "Cool Buffer AL to 56 °C if a precipitate forms."),
    ("causal", F, "shortened from 20 to 10", "The incubation was shortened because the validation study found that DNA degrades after 10 minutes at 56 °C."),
    ("scope", T, "molecular lab only", "This procedure applies to both the molecular lab and the microbiology lab."),
    ("modality", T, "guanidine", "Lysis buffer AL may be mixed with bleach."),
    ("quantifier", T, "Extracted DNA may be stored", "Extracted DNA may be stored at 2–8 °C for at least 7 days."),
    ("unrelated", F, None, "The extracted DNA is sequenced on an Illumina MiSeq."),
]

CASES["travel-policy.md"] = [
    ("verbatim", S, "All trips must be approved", "All trips must be approved in the travel tool before booking."),
    ("verbatim", S, "Receipts are required", "Receipts are required for every expense above €10."),
    ("verbatim", S, "Breakfast is included", "Breakfast is included in the hotel limit."),
    ("near-verbatim-reorder", S, "The hotel limit is", "The hotel limit is €220 per night in Paris, London, New York and Zurich."),
    ("near-verbatim-inflection", S, "Rental cars must be", "A rental car must be in the compact class unless 3 or more employees travel together."),
    ("unit-equivalence", S, "Rail must be used", "Rail must be used instead of flying when the train journey takes 240 minutes or less."),
    ("number-word", S, "Flights should be booked", "Flights should be booked at least fourteen days in advance."),
    ("date-format", S, "Approved by the CEO", "The policy was approved by the CEO, Ingrid Holm, on 1 December 2025."),
    ("paraphrase", S, "Trips within the country", "Domestic trips are approved by the line manager."),
    ("paraphrase", S, "stay with friends", "Employees are allowed to stay with friends or family instead, but no allowance is paid for it."),
    ("synonym", S, "Alcohol is not reimbursed", "Alcohol is not refunded, except at client dinners approved in advance."),
    ("synonym", S, "daily meal allowance", "The daily meal allowance is €45 for domestic trips and €60 for trips abroad."),
    ("paraphrase", S, "Reimbursement is paid", "Reimbursement is paid together with the next monthly salary."),
    ("modality", F, "Taxis may be used", "Taxis must be used at night between 22:00 and 06:00."),
    ("modality", T, "Rail must be used", "Employees may fly instead of taking the train when the train journey takes 4 hours or less."),
    ("scope", T, "The hotel limit is", "The hotel limit is €220 per night in all cities."),
    ("scope", F, "International trips must be approved", "All trips must be approved by the department head."),
    ("number-changed", T, "Private car use", "Private car use is reimbursed at €0.30 per kilometre, up to 800 km per trip."),
    ("quantifier", T, "Flights should be booked", "Flights should be booked at most 14 days in advance."),
    ("quantifier", T, "Private car use", "Private car use is reimbursed for at least 600 km per trip."),
    ("antonym", T, "Business class is allowed", "Business class is allowed only for flights shorter than 10 hours, with approval from the CFO."),
    ("negation-dropped", T, "Claims submitted after 90 days", "Claims submitted after 90 days are reimbursed."),
    ("entity-swap", T, "risk level of 4", "Travel to countries with a risk level of 4 requires approval from the CFO."),
    ("entity-swap", T, "Policy owner: Finance", "The policy was approved by the security officer, Noah Clarke."),
    ("causal", F, "Rail must be used", "Rail must be used for short journeys because flying is more expensive."),
    ("unit-changed", T, "Private car use", "Private car use is reimbursed at €0.30 per mile, up to 600 km per trip."),
    ("unrelated", F, None, "Employees may keep the frequent-flyer miles earned on business trips."),
]

CASES["zh-data-backup.md"] = [
    ("verbatim", S, "核心业务数据库每天", "核心业务数据库每天进行一次全量备份，每小时进行一次增量备份。"),
    ("verbatim", S, "外包人员不得访问", "外包人员不得访问备份系统。"),
    ("verbatim", S, "测试环境", "测试环境的数据不需要备份。"),
    ("number-word", S, "每份备份至少保存两个副本", "每份备份至少保存2个副本，其中一份必须存放在异地机房。"),
    ("date-format", S, "本制度自2026年1月1日起施行", "本制度自2026-01-01起施行。"),
    ("paraphrase", S, "密钥由安全管理员赵敏保管", "备份数据的密钥由安全管理员赵敏负责保管。"),
    ("paraphrase", S, "每季度进行一次恢复演练", "恢复演练每个季度进行一次，由运维组组长陈刚负责组织。"),
    ("near-verbatim-reorder", S, "核心业务数据库、财务系统和邮件系统", "核心业务数据库、邮件系统和财务系统必须纳入备份范围。"),
    ("unit-equivalence", S, "恢复时间目标为4小时", "核心业务数据库的恢复时间目标为240分钟。"),
    ("paraphrase", S, "员工个人电脑上的文件不在备份范围内", "员工需要自行把个人电脑上的文件保存到网盘。"),
    ("cjk-frequency", T, "核心业务数据库每天", "核心业务数据库每周进行一次全量备份。"),
    ("cjk-frequency", T, "财务系统每周", "财务系统每天进行一次全量备份。"),
    ("cjk-frequency", T, "每季度进行一次恢复演练", "每月进行一次恢复演练。"),
    ("cjk-frequency", T, "邮件系统每月", "邮件系统每周进行一次全量备份。"),
    ("cjk-object", T, "员工个人电脑上的文件不在备份范围内", "员工个人电脑上的文件必须纳入备份范围。"),
    ("cjk-object", F, "演练结果须在两周内", "演练结果须在两周内提交给信息技术部经理。"),
    ("cjk-object", F, "2026年下半年计划", "2026年下半年计划将财务系统迁移到云端。"),
    ("cjk-other", T, "外包人员不得访问", "外包人员可以访问备份系统。"),
    ("cjk-other", F, "2026年下半年计划", "邮件系统已经迁移到云端。"),
    ("cjk-other", T, "相距约1,700公里", "异地机房位于成都，与总部相距约170公里。"),
    ("cjk-other", T, "制定部门", "本制度由刘强制定，由王丽审批。"),
    ("cjk-other", F, "适用于公司总部及上海", "本制度适用于公司总部及所有分公司。"),
    ("cjk-other", F, "恢复时间目标为4小时", "由于2025年第四季度的演练失败，恢复时间目标改为4小时。"),
    ("cjk-other", T, "每日备份保留30天", "每日备份保留12个月，每月备份保留30天。"),
    ("unrelated", F, None, "备份数据存放在阿里云上。"),
]

CASES["board-minutes-2026-02.md"] = [
    ("verbatim", S, "The minutes of 15 January", "The minutes of 15 January 2026 were approved without changes."),
    ("verbatim", S, "The board approved the tender", "The board approved the tender of Hartmann Roofing at €286,000 excluding VAT."),
    ("verbatim", S, "Bicycles must not", "Bicycles must not be stored in stairwells."),
    ("near-verbatim-reorder", S, "Kofi Mensah proposed the approval", "Yara Haddad seconded the approval and Kofi Mensah proposed it."),
    ("near-verbatim-inflection", S, "Two households", "Two households are on payment plans; neither has missed an instalment."),
    ("number-word", S, "six years of service", "The board thanked Peter Novak for 6 years of service on the maintenance committee."),
    ("number-word", S, "Two households", "2 households are on a payment plan."),
    ("date-format", S, "The AGM will be held", "The AGM will be held on 2026-04-23."),
    ("date-format", S, "next board meeting", "The next board meeting is on March 12, 2026."),
    ("unit-equivalence", S, "Work will start on 4 May", "Work will start on 4 May 2026 and should take 77 days."),
    ("paraphrase", S, "The budget was proposed by", "Helen Okafor approved, on behalf of the board, the budget that Samuel Lindqvist proposed."),
    ("synonym", S, "Yara Haddad abstained", "Yara Haddad abstained since she lives in block C."),
    ("paraphrase", S, "Residents may keep up to 2 bicycles", "Each resident may keep up to 2 bicycles in the basement storage."),
    ("synonym", S, "Gas use in block A fell", "Gas consumption in block A dropped by 62% in December compared with December 2024."),
    ("paraphrase", S, "boiler in block A was replaced", "A heat pump replaced the boiler in block A in November 2025."),
    ("role-swap", T, "The budget was proposed by", "The budget was proposed by Helen Okafor and approved by Samuel Lindqvist."),
    ("role-swap", T, "boiler in block A was replaced", "The heat pump in block A was replaced by a boiler in November 2025."),
    ("role-swap", T, "Kofi Mensah proposed the approval", "Yara Haddad proposed the approval and Kofi Mensah seconded it."),
    ("tense", F, "Work will start on 4 May", "Work on the roof of block C started on 4 May 2026."),
    ("tense", F, "Kofi Mensah was nominated", "Kofi Mensah succeeded Ruth Amsel as secretary."),
    ("tense", F, "Ruth Amsel will step down", "Ruth Amsel has stepped down as secretary."),
    ("modality", T, "Bicycles must not", "Bicycles may be stored in stairwells."),
    ("modality", F, "The scaffolding may stay up", "The scaffolding must stay up for 14 weeks."),
    ("negation-dropped", T, "not to replace the boiler in block B", "The board decided to replace the boiler in block B this year."),
    ("quantifier", T, "The scaffolding may stay up", "The scaffolding may stay up for at least 14 weeks."),
    ("quantifier", T, "Residents of block C must be notified", "Residents of block C must be notified at most 21 days before work starts."),
    ("scope", F, "Residents of block C must be notified", "All residents must be notified at least 21 days before work starts."),
    ("number-changed", T, "The reserve fund stood", "The reserve fund stood at €421,300 on 31 January 2026."),
    ("antonym", T, "Service charge arrears", "Service charge arrears rose from €18,900 to €11,250 since December."),
    ("antonym", T, "Gas use in block A fell", "Gas use in block A rose by 62% in December compared with December 2024."),
    ("causal", F, "Gas use in block A fell", "Gas use in block A fell by 62% because the boiler was replaced by a heat pump."),
    ("entity-swap", T, "Guest: Ines Carvalho", "Ines Carvalho of Hartmann Roofing presented three tenders for the roof of block C."),
    ("entity-swap", T, "Action points", "Ruth Amsel is to sign the contract with Hartmann Roofing by 28 February 2026."),
    ("unrelated", F, None, "The board approved a rent increase of 3% for 2026."),
]

CASES["laptop-procurement-comparison.md"] = [
    ("verbatim", S, "The standard laptop", "The standard laptop for all staff will be the Lyra 14 G3."),
    ("verbatim", S, "Old laptops", "Old laptops must be wiped by IT before they are donated."),
    ("table-cell", S, "| Orion X13 | 10 cores", "The Orion X13 weighs 1.10 kg."),
    ("table-cell", S, "| Lyra 16 G3 | 14 cores", "The Lyra 16 G3 has 32 GB of RAM."),
    ("table-cell", S, "| Vega Book Air | 8 cores", "The Vega Book Air costs €1,150 per unit."),
    ("table-cell", S, "| Orion X15 Pro | 4 years", "The Orion X15 Pro has a warranty of 4 years."),
    ("table-cell", S, "| Lyra 16 G3 | 9.0 h", "In our lab, the Lyra 16 G3 built the monorepo in 6 min 10 s."),
    ("table-cell", S, "| Orion X13 | 2 years", "Spare parts for the Orion X13 are available until 2030."),
    ("table-cell", S, "| Vega Book Air | 13.5 h", "The Vega Book Air is fanless."),
    ("unit-equivalence", S, "| Orion X13 | 10 cores", "The Orion X13 weighs 1,100 g."),
    ("unit-equivalence", S, "| Lyra 14 G3 | 10.5 h", "In our lab, the Lyra 14 G3 ran for 10 h 30 min on the office loop."),
    ("paraphrase", S, "Vega Book Air was rejected", "The Vega Book Air was turned down because of its 1-year warranty."),
    ("synonym", S, "Developers may choose", "Developers can choose the Lyra 16 G3 instead."),
    ("date-format", S, "Decision recorded", "The decision was recorded on 2026-03-09."),
    ("number-word", S, "approved a budget of", "The steering group approved a budget of €310,000 for two hundred and fifty laptops."),
    ("near-verbatim-inflection", S, "Orion X15 Pro was rejected", "The Orion X15 Pro was rejected because it does not support our USB-C dock."),
    ("table-wrong-row", T, "| Orion X13 | 10 cores", "The Orion X13 weighs 1.24 kg."),
    ("table-wrong-row", T, "| Lyra 14 G3 | 12 cores", "The Lyra 14 G3 has 32 GB of RAM."),
    ("table-wrong-row", T, "| Vega Book Air | 8 cores", "The Vega Book Air costs €980 per unit."),
    ("table-wrong-row", T, "| Orion X13 | 2 years", "The Orion X13 has a warranty of 4 years."),
    ("table-wrong-row", T, "| Orion X15 Pro | 5.5 h", "In our lab, the Orion X15 Pro ran for 13.5 h on the office loop."),
    ("table-wrong-row", T, "| Lyra 16 G3 | 14 cores", "The Lyra 16 G3 has a 13.3 in screen."),
    ("negation-dropped", T, "Orion X15 Pro was rejected", "The Orion X15 Pro supports our USB-C docks."),
    ("scope", T, "Developers may choose", "All staff, including developers, must use the Lyra 14 G3."),
    ("scope", F, "Prices are per unit", "Prices are per unit, excluding VAT, for any order size."),
    ("number-changed", T, "approved a budget of", "The steering group approved a budget of €310,000 for 150 laptops."),
    ("unit-changed", T, "| Orion X15 Pro | 16 cores", "The Orion X15 Pro weighs 2.05 lb."),
    ("causal", F, "The standard laptop", "The Lyra 14 G3 was chosen as the standard laptop because it is the cheapest model."),
    ("tense", F, "Delivery of the first 100 units", "The first 100 units were delivered in April 2026."),
    ("modality", F, "Developers may choose", "Developers must choose the Lyra 16 G3."),
    ("quantifier", T, "Prices are per unit", "Prices are per unit, excluding VAT, for an order of up to 50 units."),
    ("entity-swap", T, "Prepared by Procurement", "The comparison was prepared by IT (Maja Horvat) for the steering group."),
    ("unrelated", F, None, "The Lyra 14 G3 has a fingerprint reader."),
]

CASES["lease-office-clauses.md"] = [
    ("verbatim", S, "The landlord has no break right", "The landlord has no break right."),
    ("verbatim", S, "must not make structural", "The tenant must not make structural alterations."),
    ("verbatim", S, "network cabling", "The tenant may install its own network cabling without consent."),
    ("near-verbatim-reorder", S, "The landlord is responsible", "The landlord is responsible for the common parts, the structure and the roof."),
    ("near-verbatim-inflection", S, "The landlord may enter", "The landlord may enter the premises for inspections on 48 hours' notice, except in an emergency."),
    ("number-word", S, "The first 3 months", "The first three months of the term are rent-free."),
    ("number-word", S, "The term is 5 years", "The term is five years, from 1 August 2025 to 31 July 2030."),
    ("unit-equivalence", S, "The term is 5 years", "The term is 60 months, from 1 August 2025 to 31 July 2030."),
    ("date-format", S, "Lease signed on", "The lease was signed on 2025-07-01."),
    ("date-format", S, "The tenant may end the lease", "The tenant may end the lease on 2028-07-31 by giving at least 6 months' written notice."),
    ("paraphrase", S, "The annual rent is", "The rent of £84,000 a year is paid quarterly in advance."),
    ("paraphrase", S, "Non-structural alterations", "The landlord must not unreasonably withhold consent to non-structural alterations."),
    ("synonym", S, "Sharing the premises", "Sharing the premises with a group company is allowed without consent."),
    ("synonym", S, "Subletting of part", "Subletting of part of the premises is forbidden."),
    ("modality", T, "must not make structural", "The tenant may make structural alterations."),
    ("negation-dropped", T, "may not assign", "The tenant may assign the lease during the first 2 years."),
    ("modality", F, "network cabling", "The tenant must install its own network cabling."),
    ("negation-dropped", T, "The break is conditional", "The break is conditional on the state of repair."),
    ("role-swap", T, "Lease signed on", "The lease was signed by Jonas Weber for the landlord and by Sarah Quinn for the tenant."),
    ("role-swap", T, "must insure its own contents", "The tenant insures the building and the landlord insures the tenant's contents."),
    ("antonym", T, "The rent is reviewed", "The rent is reviewed downward only on 1 August 2027 and 1 August 2029."),
    ("quantifier", T, "The tenant may end the lease", "The tenant may end the lease on 31 July 2028 by giving at most 6 months' written notice."),
    ("quantifier", T, "The rent is reviewed", "The rent review is at least 4% per year."),
    ("number-changed", T, "A deposit equal to", "A deposit equal to 6 months' rent (£48,000) is held by the landlord."),
    ("unit-changed", T, "Air conditioning runs", "Extra hours of air conditioning are charged at £35 per day."),
    ("scope", T, "may be used only as offices", "The premises may be used for any purpose within Class E."),
    ("scope", T, "Subletting of part", "Subletting of the premises is prohibited."),
    ("causal", F, "The first 3 months", "The first 3 months of the term are rent-free because the tenant fitted out the premises."),
    ("entity-swap", T, "Summary prepared by", "This summary was prepared by Sarah Quinn, legal counsel for the tenant."),
    ("tense", F, "The term is 5 years", "The lease ended on 31 July 2030."),
    ("unrelated", F, None, "The tenant must pay business rates directly to the council."),
]

CASES["release-notes-atlas.md"] = [
    ("verbatim", S, "dark mode", "The web console now supports dark mode."),
    ("verbatim", S, "Only the latest patch", "Only the latest patch release of a minor line receives fixes."),
    ("verbatim", S, "Snapshots are kept", "Snapshots are kept for 30 days by default; this is configurable."),
    ("verbatim", S, "Atlas 4.0 is planned", "Atlas 4.0 is planned for Q4 2026."),
    ("near-verbatim-inflection", S, "The scheduler retries", "The scheduler retries a failed job 3 times by default, up from 1."),
    ("near-verbatim-reorder", S, "Maintainers:", "Maintainers: Olga Petrova (QA lead), Chen Wei (release manager)."),
    ("number-word", S, "The scheduler retries", "The scheduler retries failed jobs three times by default, up from one."),
    ("date-format", S, "## Atlas 3.10.0", "Atlas 3.10.0 was released on 18 February 2026."),
    ("date-format", S, "## Atlas 3.9.2", "Atlas 3.9.2 was released on January 7, 2026."),
    ("unit-equivalence", S, "Each minor release is supported", "Each minor release is supported for 1 year after its release date."),
    ("paraphrase", S, "Security reports must be sent", "Security reports must go to security@atlas.example rather than to the public issue tracker."),
    ("paraphrase", S, "Existing installations keep RocksDB", "Unless they are migrated with `atlas migrate-storage`, existing installations keep RocksDB."),
    ("synonym", S, "The `--legacy-auth` flag", "The `--legacy-auth` flag was dropped; use OIDC or API tokens."),
    ("synonym", S, "exports larger than 4 GB", "Exports bigger than 4 GB no longer fail on Windows."),
    ("version", T, "## Atlas 3.10.0", "Atlas 3.1.0 was released on 2026-02-18."),
    ("version", T, "Upgrade notes", "Upgrading from 3.8 or earlier requires an intermediate upgrade to 3.10."),
    ("version", T, "Fixed a memory leak", "The memory leak in the ingestion worker was introduced in 3.9.2."),
    ("version", T, "minimum supported PostgreSQL", "The minimum supported PostgreSQL version for the metadata store is now 15."),
    ("version", T, "Last release of the 3.1 LTS", "The 3.10 LTS line receives security fixes until 2026-06-30."),
    ("role-swap", T, "Python 3.12 is now supported", "Python 3.8 is now supported; Python 3.12 is no longer supported."),
    ("role-swap", T, "The default storage engine changed", "The default storage engine changed from LMDB to RocksDB for new installations."),
    ("role-swap", T, "Maintainers:", "Chen Wei is the QA lead and Olga Petrova is the release manager."),
    ("tense", F, "Atlas 4.0 is planned", "Atlas 4.0 was released in Q4 2026."),
    ("tense", T, "ARM64", "Atlas can run on ARM64 servers."),
    ("scope", T, "Existing installations keep RocksDB", "All installations, including existing ones, now use LMDB as the storage engine."),
    ("scope", F, "exports larger than 4 GB", "Exports larger than 4 GB no longer fail on any operating system."),
    ("negation-dropped", T, "Python 3.12 is now supported", "Python 3.8 is still supported."),
    ("causal", F, "Fixed a memory leak", "The memory leak in the ingestion worker was caused by the incremental snapshots."),
    ("quantifier", T, "Query planner", "Joins on indexed columns are at least 3 times faster in our benchmarks."),
    ("modality", T, "Security reports must be sent", "Security reports may be sent to the public issue tracker."),
    ("number-changed", T, "Snapshots are kept", "Snapshots are kept for 60 days by default."),
    ("unit-changed", T, "exports larger than 4 GB", "Fixed: exports larger than 4 MB no longer fail on Windows."),
    ("antonym", T, "The `--legacy-auth` flag", "Atlas 3.10.0 added the `--legacy-auth` flag."),
    ("unrelated", F, None, "Atlas 3.10.0 adds a GraphQL endpoint."),
]

CASES["network-upgrade-branch-offices.md"] = [
    ("verbatim", S, "Video calls", "Video calls are given priority over all other traffic on the SD-WAN."),
    ("verbatim", S, "Lyon and Porto were upgraded", "Lyon and Porto were upgraded in February 2026."),
    ("verbatim", S, "took over as designed", "The 4G/LTE backup in Lyon took over as designed during that outage."),
    ("table-cell", S, "| Gdansk | 120", "Gdansk has a second fibre as its backup link."),
    ("table-cell", S, "| Brno | 30", "Brno's new fibre link runs at 300 Mbit/s."),
    ("table-cell", S, "| Porto | 40", "The Porto office has 40 staff."),
    ("table-cell", S, "| Tallinn", "Tallinn's old MPLS link was 20 Mbit/s."),
    ("unit-equivalence", S, "Guest Wi-Fi is limited", "Guest Wi-Fi is limited to 6.25 MB/s per office."),
    ("unit-equivalence", S, "| Lyon | 85", "Lyon's new fibre link runs at 1,000 Mbit/s."),
    ("number-word", S, "The WAN links of the five", "The WAN links of the 5 branch offices are being upgraded from MPLS to SD-WAN over fibre."),
    ("date-format", S, "Gdansk is scheduled", "Gdansk is scheduled for 2026-04-14."),
    ("date-format", S, "The old MPLS contract", "The old MPLS contract with Telcora ends on June 30, 2026 and will not be renewed."),
    ("near-verbatim-reorder", S, "Gdansk is scheduled", "Tallinn and Brno will follow in May 2026."),
    ("near-verbatim-reorder", S, "Backups to the data centre", "Backups to the data centre may run between 22:00 and 05:00 local time only."),
    ("synonym", S, "In Lyon, the median latency", "In Lyon, the median latency to the Frankfurt data centre dropped from 38 ms to 14 ms."),
    ("paraphrase", S, "Guest Wi-Fi traffic must not enter", "Guest Wi-Fi traffic is kept out of the corporate network and leaves through the local internet breakout."),
    ("paraphrase", S, "The SD-WAN appliances were bought", "The SD-WAN appliances came from Meridian Networks rather than from Telcora."),
    ("table-wrong-row", T, "| Porto | 40", "Porto's new fibre link runs at 1 Gbit/s."),
    ("table-wrong-row", T, "| Brno | 30", "Brno has a 4G/LTE backup link."),
    ("table-wrong-row", T, "| Gdansk | 120", "The Gdansk office has 85 staff."),
    ("unit-changed", T, "Guest Wi-Fi is limited", "Guest Wi-Fi is limited to 50 MB/s per office."),
    ("unit-changed", T, "| Brno | 30", "Brno's new fibre link runs at 300 MB/s."),
    ("tense", F, "Gdansk is scheduled", "Gdansk was upgraded in April 2026."),
    ("tense", F, "Gdansk is scheduled", "Brno and Tallinn have been upgraded."),
    ("antonym", T, "In Porto, the median latency", "In Porto, the median latency to Frankfurt rose from 52 ms to 29 ms."),
    ("antonym", T, "Packet loss in Porto", "Packet loss in Porto rose above 0.1% after the upgrade."),
    ("causal", F, "one outage of 25 minutes", "The outage in Lyon on 3 March 2026 was caused by the SD-WAN upgrade."),
    ("causal", F, "Packet loss in Porto", "Packet loss in Porto dropped below 0.1% because video calls were given priority."),
    ("scope", T, "Backups to the data centre", "Backups to the data centre may run at any time."),
    ("modality", T, "Failover to the backup link", "Failover to the backup link may be done manually."),
    ("entity-swap", T, "The SD-WAN appliances were bought", "The SD-WAN appliances were bought from Telcora."),
    ("number-changed", T, "one-off installation cost", "The one-off installation cost was €83,000."),
    ("role-swap", T, "Project lead:", "Fatima Al-Sayed is the project lead and Tomasz Zielinski is the sponsor."),
    ("quantifier", T, "Guest Wi-Fi is limited", "Guest Wi-Fi gets at least 50 Mbit/s per office."),
    ("unrelated", F, None, "The branch offices use Cisco Meraki access points."),
]

CASES["zh-safety-meeting-minutes.md"] = [
    ("verbatim", S, "仓库内禁止吸烟", "仓库内禁止吸烟，违者罚款200元。"),
    ("verbatim", S, "上季度全厂", "上季度全厂未发生重伤事故，发生轻伤事故2起。"),
    ("number-word", S, "上季度全厂", "上季度全厂发生轻伤事故两起。"),
    ("date-format", S, "下次会议", "下次会议定于2026-06-05召开。"),
    ("paraphrase", S, "会议同意周涛", "增加夜班安全员的方案由周涛提出，李建国批准实施。"),
    ("synonym", S, "新员工上岗前", "新员工上岗前必须接受至少8学时的安全培训。"),
    ("near-verbatim-reorder", S, "设备部每周", "设备部每月检查一次消防设施，每周检查一次车间的电气线路。"),
    ("paraphrase", S, "第一次演练定于4月18日", "全厂第一次消防演练安排在4月18日。"),
    ("cjk-frequency", T, "设备部每周", "设备部每月检查一次车间的电气线路。"),
    ("cjk-frequency", T, "全厂每半年", "全厂每季度组织一次消防演练。"),
    ("cjk-frequency", T, "叉车司机每年", "叉车司机每两年必须参加一次复训。"),
    ("cjk-frequency", T, "班组长每月", "班组长每周参加一次安全例会。"),
    ("cjk-frequency", T, "夜班每班配备", "从4月1日起，夜班每周配备1名专职安全员。"),
    ("cjk-object", T, "设备部每周", "设备部每周检查一次车间的消防设施。"),
    ("cjk-object", T, "会议批准更换冲压车间", "会议批准更换包装车间的两台旧压力机。"),
    ("cjk-object", T, "郑凯提出", "郑凯提出在食堂安装监控摄像头。"),
    ("cjk-object", T, "旧压力机将出售", "旧压力机将捐赠给职业学校。"),
    ("cjk-other", T, "会议同意周涛", "会议同意李建国提出的方案，由周涛批准实施。"),
    ("cjk-other", T, "叉车司机每年", "复训不合格者可以驾驶叉车。"),
    ("cjk-other", F, "计划于6月底前安装完成", "新压力机已经安装完成。"),
    ("cjk-other", T, "会议批准更换冲压车间", "会议批准更换冲压车间的两台旧压力机，预算为每台54万元。"),
    ("cjk-other", F, "2月20日", "2月20日仓库叉车与货架发生碰撞，是因为叉车司机没有参加复训。"),
    ("cjk-other", T, "冲压车间的噪声", "冲压车间的员工可以不佩戴耳塞。"),
    ("cjk-other", T, "新压力机由吴芳", "新压力机由郑凯负责采购。"),
    ("unrelated", F, None, "工厂将在下半年增加一条新的包装生产线。"),
]

CASES["ja-remote-work-rules.md"] = [
    ("verbatim", S, "月額5,000円", "在宅勤務手当として、月額5,000円を支給する。"),
    ("verbatim", S, "深夜（22時", "深夜（22時から翌5時まで）の勤務は禁止する。"),
    ("verbatim", S, "試用期間中", "試用期間中の社員は在宅勤務を利用できない。"),
    ("number-word", S, "月額5,000円", "在宅勤務手当として、月額五千円を支給する。"),
    ("date-format", S, "本規程は2026年4月1日から施行する", "本規程は2026-04-01から施行する。"),
    ("paraphrase", S, "派遣社員には適用しない", "派遣社員は本規程の対象外である。"),
    ("paraphrase", S, "毎週水曜日", "水曜日は毎週全社員が出社する日であり、在宅勤務はできない。"),
    ("near-verbatim-reorder", S, "本規程は正社員および契約社員", "本規程は契約社員および正社員に適用する。"),
    ("unit-equivalence", S, "勤務時間は9時から", "休憩は12時から13時までの60分とする。"),
    ("synonym", S, "会社が貸与したパソコン", "会社が貸与したPC以外で業務を行ってはならない。"),
    ("cjk-frequency", T, "月に1回", "在宅勤務者は、週に1回、上長と面談を行う。"),
    ("cjk-frequency", T, "毎年3月", "本規程の見直しは、人事部が半年ごとに行う。"),
    ("cjk-object", T, "カフェなど自宅以外", "カフェなど自宅以外の場所での勤務は、人事部の許可を得た場合に限り認める。"),
    ("cjk-object", T, "通信費は手当に含まれる", "出社日の通信費は実費を支給する。"),
    ("cjk-object", T, "毎週水曜日", "毎週金曜日は全社員の出社日とし、在宅勤務は認めない。"),
    ("cjk-other", T, "試用期間中", "試用期間中の社員も在宅勤務を利用できる。"),
    ("cjk-other", T, "制定：人事部", "本規程は高橋健一が制定し、佐藤美咲が承認した。"),
    ("cjk-other", T, "在宅勤務は週3日まで", "在宅勤務は週4日までとする。"),
    ("cjk-other", T, "育児または介護", "全社員が週5日まで在宅勤務をすることができる。"),
    ("cjk-other", T, "旧規程では", "本改定により、在宅勤務は週3日から週2日までに縮小した。"),
    ("cjk-other", T, "在宅勤務は週3日まで", "在宅勤務は週2日までとする。"),
    ("unrelated", F, None, "在宅勤務者にはモニターを1台貸与する。"),
]



def _line_of(note: str, anchor: str) -> int:
    lines = (NOTES / note).read_text(encoding="utf-8").splitlines()
    hits = [i + 1 for i, line in enumerate(lines) if anchor in line]
    if len(hits) != 1:
        raise SystemExit(f"{note}: anchor {anchor!r} found on lines {hits}")
    return hits[0]


def build() -> list[dict]:
    out: list[dict] = []
    ids: set[str] = set()
    for note, cases in CASES.items():
        stem = note.removesuffix(".md")
        for n, (kind, contradicted, anchor, claim) in enumerate(cases, 1):
            supported = contradicted is None
            if kind not in (SUPPORTED_KINDS if supported else UNSUPPORTED_KINDS):
                raise SystemExit(f"{note} #{n}: kind {kind!r} does not fit the label")
            if (supported or contradicted) and anchor is None:
                raise SystemExit(f"{note} #{n}: supported/contradicted case needs an anchor")
            if isinstance(anchor, tuple):
                span = [_line_of(note, anchor[0]), _line_of(note, anchor[1])]
            else:
                span = [_line_of(note, anchor)] * 2 if anchor else None
            case = {
                "id": f"{stem}-{n:02d}",
                "note": note,
                "claim": claim,
                "label": "supported" if supported else "unsupported",
                "contradicted": False if supported else bool(contradicted),
                "kind": kind,
                "evidence_lines": span if (supported or contradicted) else None,
                "related_lines": span if span and not (supported or contradicted) else None,
                "split": SPLITS[note],
            }
            assert case["id"] not in ids
            ids.add(case["id"])
            out.append(case)
    return out


def main() -> None:
    cases = build()
    with (HERE / "cases.jsonl").open("w", encoding="utf-8") as fh:
        for case in cases:
            fh.write(json.dumps(case, ensure_ascii=False) + "\n")
    kinds = Counter((c["label"], c["kind"]) for c in cases)
    splits = Counter(c["split"] for c in cases)
    print(f"{len(cases)} cases over {len(CASES)} notes; splits {dict(splits)}")
    for (label, kind), n in sorted(kinds.items()):
        print(f"  {label:12} {kind:26} {n}")


if __name__ == "__main__":
    main()
