"""``get_time``: the date and time here or in a named place, and the date some days from today.

A place is a city of the IANA time zone database ("Tokyo" for ``Asia/Tokyo``, "São Paulo",
"new york"), or a country, state, region or common name from ``PLACES`` ("India", "UK",
"California", "Pacific time", "EST"), or an offset ("UTC+5:30"); matched without regard to case,
accents and punctuation, with a close spelling accepted and said ("Tokio" is taken as Tokyo).  A
country that spans several zones gets its capital's (or its main city's), and the answer says
so.  The zones come from Python's ``zoneinfo``: the system's database, or the ``tzdata`` package
where the system has none (Windows).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import re
import time
import zoneinfo
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any

from ...backend.cancel import CancelFlag
from ...errors import UntrustedFileError
from ...untrusted import read_bytes
from ..tool import ToolResult, ToolSpec
from .cues import Cued, clock_spans, narrowed
from .wording import clock, fold, long_date, plural

MAX_DAYS = 36500  # a century either way
MAX_PLACE_CHARS = 100
_NOT_CITIES = ("Etc/", "SystemV/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/", "posix/", "right/")
_HERE = {"", "here", "local", "home", "my place", "my time", "local time", "this computer", "my time zone"}

# Places people name that are not a zone's city: countries (their capital's zone, or with a note
# when they span several), states and provinces, big cities without a zone of their own, and the
# names of zones.  Keys are folded (``wording.fold``).
_SEVERAL = "{country} has several time zones; this is {city}'s"
_COUNTRIES: Mapping[str, str] = {
    "afghanistan": "Asia/Kabul",
    "albania": "Europe/Tirane",
    "algeria": "Africa/Algiers",
    "andorra": "Europe/Andorra",
    "angola": "Africa/Luanda",
    "armenia": "Asia/Yerevan",
    "austria": "Europe/Vienna",
    "azerbaijan": "Asia/Baku",
    "bahrain": "Asia/Bahrain",
    "bangladesh": "Asia/Dhaka",
    "belarus": "Europe/Minsk",
    "belgium": "Europe/Brussels",
    "bolivia": "America/La_Paz",
    "bosnia": "Europe/Sarajevo",
    "bosnia and herzegovina": "Europe/Sarajevo",
    "bulgaria": "Europe/Sofia",
    "cambodia": "Asia/Phnom_Penh",
    "cameroon": "Africa/Douala",
    "china": "Asia/Shanghai",
    "colombia": "America/Bogota",
    "costa rica": "America/Costa_Rica",
    "croatia": "Europe/Zagreb",
    "cuba": "America/Havana",
    "cyprus": "Asia/Nicosia",
    "czech republic": "Europe/Prague",
    "czechia": "Europe/Prague",
    "denmark": "Europe/Copenhagen",
    "dominican republic": "America/Santo_Domingo",
    "egypt": "Africa/Cairo",
    "el salvador": "America/El_Salvador",
    "england": "Europe/London",
    "estonia": "Europe/Tallinn",
    "ethiopia": "Africa/Addis_Ababa",
    "fiji": "Pacific/Fiji",
    "finland": "Europe/Helsinki",
    "france": "Europe/Paris",
    "germany": "Europe/Berlin",
    "ghana": "Africa/Accra",
    "great britain": "Europe/London",
    "britain": "Europe/London",
    "greece": "Europe/Athens",
    "guatemala": "America/Guatemala",
    "holland": "Europe/Amsterdam",
    "honduras": "America/Tegucigalpa",
    "hungary": "Europe/Budapest",
    "iceland": "Atlantic/Reykjavik",
    "india": "Asia/Kolkata",
    "iran": "Asia/Tehran",
    "iraq": "Asia/Baghdad",
    "ireland": "Europe/Dublin",
    "israel": "Asia/Jerusalem",
    "italy": "Europe/Rome",
    "ivory coast": "Africa/Abidjan",
    "japan": "Asia/Tokyo",
    "jordan": "Asia/Amman",
    "kenya": "Africa/Nairobi",
    "korea": "Asia/Seoul",
    "south korea": "Asia/Seoul",
    "north korea": "Asia/Pyongyang",
    "kuwait": "Asia/Kuwait",
    "laos": "Asia/Vientiane",
    "latvia": "Europe/Riga",
    "lebanon": "Asia/Beirut",
    "libya": "Africa/Tripoli",
    "lithuania": "Europe/Vilnius",
    "luxembourg": "Europe/Luxembourg",
    "malaysia": "Asia/Kuala_Lumpur",
    "malta": "Europe/Malta",
    "moldova": "Europe/Chisinau",
    "monaco": "Europe/Monaco",
    "morocco": "Africa/Casablanca",
    "myanmar": "Asia/Yangon",
    "burma": "Asia/Yangon",
    "nepal": "Asia/Kathmandu",
    "netherlands": "Europe/Amsterdam",
    "nicaragua": "America/Managua",
    "nigeria": "Africa/Lagos",
    "north macedonia": "Europe/Skopje",
    "northern ireland": "Europe/London",
    "norway": "Europe/Oslo",
    "oman": "Asia/Muscat",
    "pakistan": "Asia/Karachi",
    "palestine": "Asia/Gaza",
    "panama": "America/Panama",
    "paraguay": "America/Asuncion",
    "peru": "America/Lima",
    "philippines": "Asia/Manila",
    "poland": "Europe/Warsaw",
    "portugal": "Europe/Lisbon",
    "qatar": "Asia/Qatar",
    "romania": "Europe/Bucharest",
    "rwanda": "Africa/Kigali",
    "saudi arabia": "Asia/Riyadh",
    "scotland": "Europe/London",
    "senegal": "Africa/Dakar",
    "serbia": "Europe/Belgrade",
    "slovakia": "Europe/Bratislava",
    "slovenia": "Europe/Ljubljana",
    "south africa": "Africa/Johannesburg",
    "spain": "Europe/Madrid",
    "sri lanka": "Asia/Colombo",
    "sudan": "Africa/Khartoum",
    "sweden": "Europe/Stockholm",
    "switzerland": "Europe/Zurich",
    "syria": "Asia/Damascus",
    "taiwan": "Asia/Taipei",
    "tanzania": "Africa/Dar_es_Salaam",
    "thailand": "Asia/Bangkok",
    "tunisia": "Africa/Tunis",
    "turkey": "Europe/Istanbul",
    "turkiye": "Europe/Istanbul",
    "uae": "Asia/Dubai",
    "united arab emirates": "Asia/Dubai",
    "uganda": "Africa/Kampala",
    "uk": "Europe/London",
    "united kingdom": "Europe/London",
    "ukraine": "Europe/Kyiv",
    "uruguay": "America/Montevideo",
    "uzbekistan": "Asia/Tashkent",
    "venezuela": "America/Caracas",
    "vietnam": "Asia/Ho_Chi_Minh",
    "wales": "Europe/London",
    "yemen": "Asia/Aden",
    "zambia": "Africa/Lusaka",
    "zimbabwe": "Africa/Harare",
}
# Countries with several zones: the zone given, and the city it is.
_WIDE_COUNTRIES: Mapping[str, tuple[str, str, str]] = {
    "united states": ("America/New_York", "the United States", "Washington, D.C."),
    "united states of america": ("America/New_York", "the United States", "Washington, D.C."),
    "usa": ("America/New_York", "the United States", "Washington, D.C."),
    "us": ("America/New_York", "the United States", "Washington, D.C."),
    "america": ("America/New_York", "the United States", "Washington, D.C."),
    "canada": ("America/Toronto", "Canada", "Ottawa"),
    "australia": ("Australia/Sydney", "Australia", "Sydney"),
    "brazil": ("America/Sao_Paulo", "Brazil", "Brasília and São Paulo"),
    "russia": ("Europe/Moscow", "Russia", "Moscow"),
    "mexico": ("America/Mexico_City", "Mexico", "Mexico City"),
    "indonesia": ("Asia/Jakarta", "Indonesia", "Jakarta"),
    "argentina": ("America/Argentina/Buenos_Aires", "Argentina", "Buenos Aires"),
    "chile": ("America/Santiago", "Chile", "Santiago"),
    "kazakhstan": ("Asia/Almaty", "Kazakhstan", "Almaty"),
    "mongolia": ("Asia/Ulaanbaatar", "Mongolia", "Ulaanbaatar"),
    "new zealand": ("Pacific/Auckland", "New Zealand", "Wellington and Auckland"),
    "ecuador": ("America/Guayaquil", "Ecuador", "Quito"),
    "congo": ("Africa/Kinshasa", "Congo", "Kinshasa"),
    "greenland": ("America/Nuuk", "Greenland", "Nuuk"),
}
_REGIONS: Mapping[str, str] = {
    # United States: states, cities without a zone of their own, the zones' names.
    "alabama": "America/Chicago",
    "alaska": "America/Anchorage",
    "arizona": "America/Phoenix",
    "arkansas": "America/Chicago",
    "california": "America/Los_Angeles",
    "colorado": "America/Denver",
    "connecticut": "America/New_York",
    "delaware": "America/New_York",
    "florida": "America/New_York",
    "georgia": "Asia/Tbilisi",
    "georgia usa": "America/New_York",
    "hawaii": "Pacific/Honolulu",
    "idaho": "America/Boise",
    "illinois": "America/Chicago",
    "indiana": "America/Indiana/Indianapolis",
    "iowa": "America/Chicago",
    "kansas": "America/Chicago",
    "kentucky": "America/New_York",
    "louisiana": "America/Chicago",
    "maine": "America/New_York",
    "maryland": "America/New_York",
    "massachusetts": "America/New_York",
    "michigan": "America/Detroit",
    "minnesota": "America/Chicago",
    "mississippi": "America/Chicago",
    "missouri": "America/Chicago",
    "montana": "America/Denver",
    "nebraska": "America/Chicago",
    "nevada": "America/Los_Angeles",
    "new hampshire": "America/New_York",
    "new jersey": "America/New_York",
    "new mexico": "America/Denver",
    "new york state": "America/New_York",
    "new york city": "America/New_York",
    "nyc": "America/New_York",
    "north carolina": "America/New_York",
    "north dakota": "America/Chicago",
    "ohio": "America/New_York",
    "oklahoma": "America/Chicago",
    "oregon": "America/Los_Angeles",
    "pennsylvania": "America/New_York",
    "rhode island": "America/New_York",
    "south carolina": "America/New_York",
    "south dakota": "America/Chicago",
    "tennessee": "America/Chicago",
    "texas": "America/Chicago",
    "utah": "America/Denver",
    "vermont": "America/New_York",
    "virginia": "America/New_York",
    "washington": "America/New_York",
    "washington dc": "America/New_York",
    "washington d c": "America/New_York",
    "washington state": "America/Los_Angeles",
    "west virginia": "America/New_York",
    "wisconsin": "America/Chicago",
    "wyoming": "America/Denver",
    "san francisco": "America/Los_Angeles",
    "sf": "America/Los_Angeles",
    "bay area": "America/Los_Angeles",
    "silicon valley": "America/Los_Angeles",
    "san jose": "America/Los_Angeles",
    "san diego": "America/Los_Angeles",
    "seattle": "America/Los_Angeles",
    "portland": "America/Los_Angeles",
    "las vegas": "America/Los_Angeles",
    "la": "America/Los_Angeles",
    "hollywood": "America/Los_Angeles",
    "boston": "America/New_York",
    "philadelphia": "America/New_York",
    "miami": "America/New_York",
    "atlanta": "America/New_York",
    "orlando": "America/New_York",
    "baltimore": "America/New_York",
    "pittsburgh": "America/New_York",
    "charlotte": "America/New_York",
    "cleveland": "America/New_York",
    "dallas": "America/Chicago",
    "houston": "America/Chicago",
    "austin": "America/Chicago",
    "san antonio": "America/Chicago",
    "new orleans": "America/Chicago",
    "minneapolis": "America/Chicago",
    "kansas city": "America/Chicago",
    "st louis": "America/Chicago",
    "saint louis": "America/Chicago",
    "nashville": "America/Chicago",
    "milwaukee": "America/Chicago",
    "salt lake city": "America/Denver",
    "albuquerque": "America/Denver",
    "east coast": "America/New_York",
    "west coast": "America/Los_Angeles",
    "midwest": "America/Chicago",
    "eastern": "America/New_York",
    "eastern time": "America/New_York",
    "est": "America/New_York",
    "edt": "America/New_York",
    "et": "America/New_York",
    "central": "America/Chicago",
    "central time": "America/Chicago",
    "cst": "America/Chicago",
    "cdt": "America/Chicago",
    "mountain": "America/Denver",
    "mountain time": "America/Denver",
    "mst": "America/Denver",
    "mdt": "America/Denver",
    "pacific": "America/Los_Angeles",
    "pacific time": "America/Los_Angeles",
    "pst": "America/Los_Angeles",
    "pdt": "America/Los_Angeles",
    "pt": "America/Los_Angeles",
    "hst": "Pacific/Honolulu",
    # Canada
    "ontario": "America/Toronto",
    "quebec": "America/Toronto",
    "ottawa": "America/Toronto",
    "montreal": "America/Toronto",
    "british columbia": "America/Vancouver",
    "alberta": "America/Edmonton",
    "calgary": "America/Edmonton",
    "manitoba": "America/Winnipeg",
    "saskatchewan": "America/Regina",
    "nova scotia": "America/Halifax",
    "newfoundland": "America/St_Johns",
    # Australia
    "new south wales": "Australia/Sydney",
    "canberra": "Australia/Sydney",
    "victoria": "Australia/Melbourne",
    "queensland": "Australia/Brisbane",
    "western australia": "Australia/Perth",
    "south australia": "Australia/Adelaide",
    "tasmania": "Australia/Hobart",
    "northern territory": "Australia/Darwin",
    # Europe
    "barcelona": "Europe/Madrid",
    "seville": "Europe/Madrid",
    "valencia": "Europe/Madrid",
    "munich": "Europe/Berlin",
    "frankfurt": "Europe/Berlin",
    "hamburg": "Europe/Berlin",
    "cologne": "Europe/Berlin",
    "milan": "Europe/Rome",
    "naples": "Europe/Rome",
    "florence": "Europe/Rome",
    "venice": "Europe/Rome",
    "geneva": "Europe/Zurich",
    "bern": "Europe/Zurich",
    "basel": "Europe/Zurich",
    "lyon": "Europe/Paris",
    "marseille": "Europe/Paris",
    "nice": "Europe/Paris",
    "toulouse": "Europe/Paris",
    "manchester": "Europe/London",
    "edinburgh": "Europe/London",
    "glasgow": "Europe/London",
    "birmingham": "Europe/London",
    "liverpool": "Europe/London",
    "cardiff": "Europe/London",
    "rotterdam": "Europe/Amsterdam",
    "the hague": "Europe/Amsterdam",
    "porto": "Europe/Lisbon",
    "krakow": "Europe/Warsaw",
    "st petersburg": "Europe/Moscow",
    "saint petersburg": "Europe/Moscow",
    "kiev": "Europe/Kyiv",
    "gmt": "Etc/GMT",
    "utc": "Etc/UTC",
    "zulu": "Etc/UTC",
    "greenwich": "Europe/London",
    "bst": "Europe/London",
    "british time": "Europe/London",
    "uk time": "Europe/London",
    "cet": "Europe/Berlin",
    "cest": "Europe/Berlin",
    "central europe": "Europe/Berlin",
    "central european time": "Europe/Berlin",
    "eet": "Europe/Athens",
    "eastern europe": "Europe/Athens",
    "wet": "Europe/Lisbon",
    "scandinavia": "Europe/Stockholm",
    # Asia, Africa, Oceania, South America
    "mumbai": "Asia/Kolkata",
    "bombay": "Asia/Kolkata",
    "delhi": "Asia/Kolkata",
    "new delhi": "Asia/Kolkata",
    "bangalore": "Asia/Kolkata",
    "bengaluru": "Asia/Kolkata",
    "chennai": "Asia/Kolkata",
    "hyderabad": "Asia/Kolkata",
    "calcutta": "Asia/Kolkata",
    "ist": "Asia/Kolkata",
    "beijing": "Asia/Shanghai",
    "peking": "Asia/Shanghai",
    "shenzhen": "Asia/Shanghai",
    "guangzhou": "Asia/Shanghai",
    "chengdu": "Asia/Shanghai",
    "osaka": "Asia/Tokyo",
    "kyoto": "Asia/Tokyo",
    "jst": "Asia/Tokyo",
    "busan": "Asia/Seoul",
    "kst": "Asia/Seoul",
    "abu dhabi": "Asia/Dubai",
    "mecca": "Asia/Riyadh",
    "jeddah": "Asia/Riyadh",
    "tel aviv": "Asia/Jerusalem",
    "islamabad": "Asia/Karachi",
    "lahore": "Asia/Karachi",
    "hanoi": "Asia/Bangkok",
    "saigon": "Asia/Ho_Chi_Minh",
    "ho chi minh city": "Asia/Ho_Chi_Minh",
    "bali": "Asia/Makassar",
    "cape town": "Africa/Johannesburg",
    "durban": "Africa/Johannesburg",
    "marrakesh": "Africa/Casablanca",
    "wellington": "Pacific/Auckland",
    "aest": "Australia/Sydney",
    "rio": "America/Sao_Paulo",
    "rio de janeiro": "America/Sao_Paulo",
    "brasilia": "America/Sao_Paulo",
    "quito": "America/Guayaquil",
}
# Zones renamed in the database, for a system whose database is older than the table.
_RENAMED = {"Europe/Kyiv": "Europe/Kiev", "America/Nuuk": "America/Godthab", "Asia/Yangon": "Asia/Rangoon"}
_OFFSET = re.compile(r"^(?:utc|gmt|z)\s*([+-])\s*(\d{1,2})(?:\s*:?\s*(\d{2}))?$")


@dataclasses.dataclass(frozen=True)
class Place:
    name: str  # as the answer says it: "Tokyo", "India"
    zone: tzinfo
    zone_name: str  # "Asia/Tokyo", "UTC+05:30"
    note: str = ""  # "the United States has several time zones; this is Washington, D.C.'s"
    taken_as: str = ""  # what a misspelt name was taken as


class PlaceError(Exception):
    """A place whose time zone is unknown, in words for the model."""


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        if name in _RENAMED:
            return zoneinfo.ZoneInfo(_RENAMED[name])
        raise


@functools.lru_cache(maxsize=1)
def _cities() -> dict[str, str]:
    """Folded city (and full zone) names -> the zone, from the database on this system."""
    cities: dict[str, str] = {}
    for name in sorted(zoneinfo.available_timezones(), key=lambda n: (len(n), n)):
        if "/" not in name or name.startswith(_NOT_CITIES):
            continue
        cities.setdefault(fold(name), name)
        cities.setdefault(fold(name.rsplit("/", 1)[1]), name)
    return cities


def _lookup(key: str, said: str) -> Place | None:
    if key in _WIDE_COUNTRIES:
        zone_name, country, city = _WIDE_COUNTRIES[key]
        return Place(said, _zone(zone_name), zone_name, _SEVERAL.format(country=country, city=city))
    for table in (_COUNTRIES, _REGIONS):
        if key in table:
            return Place(said, _zone(table[key]), table[key])
    found = _cities().get(key)
    if found is not None:
        return Place(said, _zone(found), found)
    return None


def _all_keys() -> list[str]:
    return [*_WIDE_COUNTRIES, *_COUNTRIES, *_REGIONS, *_cities()]


def find_place(text: str) -> Place:
    """The place ``text`` names; PlaceError when none is known."""
    said = " ".join(text.split())[:MAX_PLACE_CHARS]
    key = fold(said)
    if key.startswith("the "):
        key = key[4:]
    key = re.sub(r"\s+(?:time|time zone|timezone|city)$", "", key) if key not in _REGIONS else key
    if offset := _OFFSET.match(said.strip().lower().replace(" ", "")):
        sign, hours, minutes = offset.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes or 0))
        if delta > timedelta(hours=14):
            raise PlaceError(f"{said!r} is not a real offset from UTC (at most 14 hours)")
        zone = timezone(-delta if sign == "-" else delta)
        return Place(said.upper(), zone, _offset_words(delta if sign == "+" else -delta))
    shown = said.strip(" ,.") if said != said.lower() else _title(key)
    for candidate in (key, *[fold(part) for part in re.split(r"[,(]", said) if fold(part)]):
        if place := _lookup(candidate, shown if candidate == key else _title(candidate)):
            return place
    keys = _all_keys()
    close = difflib.get_close_matches(key, keys, n=1, cutoff=0.88) if key else []
    if close and (place := _lookup(close[0], _title(close[0]))):
        return dataclasses.replace(place, taken_as=_title(close[0]))
    near = difflib.get_close_matches(key, keys, n=1, cutoff=0.75) if key else []
    hint = f" (did you mean {_title(near[0])}?)" if near else ""
    raise PlaceError(
        f"I don't know the time zone of {said!r}{hint}; name a city or a country, like Tokyo, India or New York"
    )


def _title(key: str) -> str:
    """A folded name as a name: "sao paulo" -> "Sao Paulo", "utc" -> "UTC"."""
    if " " not in key and len(key) <= 4 and (key in _REGIONS or key in _COUNTRIES or key in _WIDE_COUNTRIES):
        return key.upper()
    small = ("of", "and", "the", "de", "es", "al")
    return " ".join(w if i and w in small else w.capitalize() for i, w in enumerate(key.split()))


def _offset_words(delta: timedelta | None) -> str:
    """ "UTC+9", "UTC+5:30", "UTC-3", "UTC"."""
    if delta is None or not delta:
        return "UTC"
    minutes = int(delta.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def _difference(there: datetime, here: datetime) -> str:
    """ "8 hours ahead of here", "5 hours 30 minutes behind here", "the same time as here"."""
    offset = (there.utcoffset() or timedelta()) - (here.utcoffset() or timedelta())
    minutes = int(offset.total_seconds()) // 60
    if minutes == 0:
        return "the same time as here"
    hours, rest = divmod(abs(minutes), 60)
    amount = " ".join(
        part for part in (plural(hours, "hour") if hours else "", plural(rest, "minute") if rest else "") if part
    )
    return f"{amount} {'ahead of' if minutes > 0 else 'behind'} here"


def local_zone_name() -> str:
    """The IANA name of this computer's zone where the system says it ("Europe/Paris"), else ""."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    try:
        candidates.append(read_bytes("/etc/timezone", 256).decode("utf-8", errors="replace").strip())
    except UntrustedFileError:
        pass
    try:
        target = os.readlink("/etc/localtime")
        candidates.append(target.split("zoneinfo/", 1)[1] if "zoneinfo/" in target else "")
    except (OSError, ValueError):
        pass
    for name in candidates:
        if name and "/" in name and not name.startswith("/"):
            try:
                zoneinfo.ZoneInfo(name)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                continue
            return name
    return ""


class Clock(Cued):
    """The ``get_time`` tool.  ``clock``: seconds since the epoch (``time.time``); ``zone``: the
    zone "here" (None: this computer's)."""

    spec = ToolSpec(
        name="get_time",
        title="Date and time",
        description=(
            "Get the current date and time, here or in a city or country. "
            "Also gives the date a number of days from today."
        ),
        parameters={
            "type": "object",
            "properties": {
                "place": {
                    "type": "string",
                    "description": 'A city or country, e.g. "Tokyo" or "India". Leave out for here.',
                },
                "days_from_now": {
                    "type": "integer",
                    "description": "For the date in some days, e.g. 100 (or -7 for a week ago). Leave out for today.",
                    "minimum": -MAX_DAYS,
                    "maximum": MAX_DAYS,
                },
                "weeks_from_now": {
                    "type": "integer",
                    "description": "For the date in some weeks, e.g. 3 (or -1 for a week ago). Leave out for today.",
                    "minimum": -MAX_DAYS // 7,
                    "maximum": MAX_DAYS // 7,
                },
            },
        },
        read_only=True,
    )

    def __init__(self, clock: Callable[[], float] = time.time, zone: tzinfo | None = None) -> None:
        self._clock = clock
        self._zone = zone

    def parameters_for(self, request: str) -> dict[str, Any]:
        """A place when the request names one, a span when it names one ("in 3 weeks"); for
        "what time is it", nothing to write."""
        place, span = clock_spans(request)
        keep = (["place"] if place else []) + ([span] if span else [])
        return narrowed(self.spec.parameters, keep, keep)

    def describe(self, arguments: Mapping[str, Any]) -> str:
        place = str(arguments.get("place") or "").strip()
        return f"look up the time in {place}" if place and fold(place) not in _HERE else "look up the time"

    def _here(self) -> tuple[datetime, str]:
        now = self._clock()
        if self._zone is not None:
            moment = datetime.fromtimestamp(now, self._zone)
            return moment, str(getattr(self._zone, "key", "") or moment.tzname() or "")
        moment = datetime.fromtimestamp(now).astimezone()
        return moment, local_zone_name() or moment.tzname() or ""

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        here, here_zone = self._here()
        place_text = str(arguments.get("place") or "").strip()
        days = 0
        for key, length in (("days_from_now", 1), ("weeks_from_now", 7)):
            count = arguments.get(key)
            if count is None:
                continue
            if not isinstance(count, (int, float)) or isinstance(count, bool) or count != int(count):
                return ToolResult.error(f"{key} must be a whole number")
            days += int(count) * length
        if abs(days) > MAX_DAYS:
            return ToolResult.error(f"that is more than {MAX_DAYS} days from today")
        place: Place | None = None
        if place_text and fold(place_text) not in _HERE:
            try:
                place = find_place(place_text)
            except PlaceError as exc:
                return ToolResult.error(str(exc))
        moment = here.astimezone(place.zone) if place else here
        where = f" in {place.name}" if place else ""
        if days:
            return self._days_from(moment, int(days), where)
        offset = _offset_words(moment.utcoffset())
        if place:
            zone = place.zone_name if place.zone_name.startswith("UTC") else f"{place.zone_name}, {offset}"
            details = [zone, _difference(moment, here)]
            if place.note:
                details.append(place.note)
            if place.taken_as:
                details.append(f"{place_text!r} taken as {place.taken_as}")
        else:
            details = [
                "local time",
                f"{here_zone}, {offset}" if here_zone and not here_zone.startswith("UTC") else offset,
            ]
        text = f"{clock(moment)} on {long_date(moment.date())}{where} ({'; '.join(details)})."
        summary = f"{clock(moment)}, {long_date(moment.date())}{where}"
        said = f"In {place.name} it's" if place else "It's"
        return ToolResult(text, summary, answer=f"{said} {clock(moment)} on {long_date(moment.date())}.")

    def _days_from(self, today: datetime, days: int, where: str) -> ToolResult:
        try:
            day = today.date() + timedelta(days=days)
        except OverflowError:
            return ToolResult.error("that date is out of range")
        span = plural(abs(days), "day")
        relation = f"{span} from today" if days > 0 else f"{span} ago"
        text = f"{long_date(day)} is {relation}{where} (today is {long_date(today.date())})."
        return ToolResult(text, f"{long_date(day)}: {relation}", answer=f"{long_date(day)} is {relation}.")
