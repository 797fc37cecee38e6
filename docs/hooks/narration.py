"""The events of a pictured situation told in the players' words.

The engine's own event lines (``gaia_rules.text.describe``) are written for logs: seat
numbers, card ids and squares in notation. The pages players read tell the same events as a
rulebook would: "Yellow plays a plain card", "Petra goes from 2 to 3 needs met", with the
players named by their colours, cards by their faces and cities by their names. A
:class:`Narrator` follows the world as the events change it, so that it can name the city
or the land on a square at every step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import gaia_rules as gr
from gaia_rules import (
    AnimalCard,
    CardId,
    CardKind,
    CityCard,
    Land,
    NatureCard,
    Objective,
    Pos,
    PowerCard,
)
from gaia_rules.events import (
    ActionTaken,
    AnimalsPlaced,
    CardDiscarded,
    CardDrawn,
    CardKept,
    CardStolen,
    CityDiscarded,
    CityPlaced,
    CityTaken,
    DisplayRefilled,
    EndReason,
    GameEnded,
    NatureCardPlayed,
    ObjectiveFulfilled,
    PawnPlaced,
    PawnReturned,
    PowerCancelled,
    PowerPlayed,
    SatisfactionChanged,
    StolenCardsSeen,
    TilePlaced,
    TileReplaced,
    TilesSwapped,
    TokensReturned,
    TurnBegan,
)

COLOURS = ("Blue", "Yellow", "Green", "Red", "White")
"""The players, named by the colours of their pawns (seat 0 blue, spec 1.4)."""

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

_PLURAL = {
    Land.DESERT: "deserts",
    Land.PLAIN: "plains",
    Land.SWAMP: "swamps",
    Land.SEA: "seas",
    Land.MOUNTAIN: "mountains",
    Land.FOREST: "forests",
}


def player(seat: int) -> str:
    """A player by his colour: ``Blue`` for seat 0."""
    return COLOURS[seat]


def square(pos: Pos) -> str:
    """A square as the pictures label it: ``(2, 1)``."""
    return f"({pos.x}, {pos.y})"


def _article(word: str) -> str:
    return ("an " if word[0].lower() in "aeiou" else "a ") + word


def card_name(rules: gr.Rules, card: CardId) -> str:
    """A card by its face: "a plain card", "Petra", "an Animal card (desert)", "a Sun",
    "the Objective of two plains and two forests", "a Power Objective"."""
    face = rules.cards.face(card)
    match face:
        case NatureCard(land=land):
            return f"{_article(land.value)} card"
        case CityCard(name=name):
            return name
        case AnimalCard(site=site):
            return f"an Animal card ({getattr(site, 'value', site)})"
        case PowerCard(power=power):
            return _article(power.value.capitalize())
        case Objective(powers=powers) if powers:
            return "a Power Objective"
        case Objective(lands=lands):
            return "the Objective of " + objective_lands(lands)
    raise AssertionError(face)  # pragma: no cover


def objective_lands(lands: Iterable[Land]) -> str:
    """The lands a Nature Objective pictures: "two plains and two forests"."""
    counts: dict[Land, int] = {}
    for land in lands:
        counts[land] = counts.get(land, 0) + 1
    if len(counts) == 6:
        return "the six lands"
    parts = [
        f"{_NUMBERS[n]} {_PLURAL[land] if n > 1 else land.value}" for land, n in counts.items()
    ]
    return " and ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " and " + parts[-1]


def kind_name(kind: CardKind) -> str:
    """A kind of card as the rulebooks write it: "Nature", "Life", "Power"."""
    return kind.value.capitalize()


def cards_list(rules: gr.Rules, cards: Iterable[CardId]) -> str:
    """Cards by their faces, alike ones counted: "two plain cards and two forest cards"."""
    counts: dict[str, int] = {}
    for card in cards:
        name = _bare(card_name(rules, card))
        counts[name] = counts.get(name, 0) + 1
    return _list(
        [
            _singular(name) if n == 1 else f"{_NUMBERS[n]} {_plural(name)}"
            for name, n in counts.items()
        ]
    )


def _singular(name: str) -> str:
    """One card by its bare name, its article back: "a Rain", "Alexandria"."""
    if name[0].isupper() and name not in (
        "Sun",
        "Rain",
        "Earthquake",
        "Tornado",
        "Protection",
        "Lightning",
        "Eruption",
        "Animal card",
    ):
        return name
    return _article(name)


def _plural(name: str) -> str:
    if name.endswith(" card"):
        return name + "s"
    if name.endswith(")"):  # an Animal card (desert)
        return name.replace(" card ", " cards ", 1)
    return name + "s"


def _list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


@dataclass
class Narrator:
    """Tells events in the players' words, following the world they change."""

    rules: gr.Rules
    tiles: dict[Pos, Land] = field(default_factory=dict)
    cities: dict[Pos, CardId] = field(default_factory=dict)

    @classmethod
    def of(cls, source: gr.Game | gr.Position) -> Narrator:
        """A narrator that starts from the world of ``source``."""
        if isinstance(source, gr.Game):
            state = source.state
            cities = {pos: city.card for pos, city in state.cities.items()}
            return cls(state.rules, dict(state.tiles), cities)
        cities = {pos: card for pos, (card, _) in source.cities.items()}
        return cls(source.rules, dict(source.tiles), cities)

    # -- names ------------------------------------------------------------------------------

    def card(self, card: CardId | None, kind: CardKind | None = None) -> str:
        if card is None:
            return f"a {kind_name(kind)} card" if kind else "a hidden card"
        return card_name(self.rules, card)

    def on(self, pos: Pos) -> str:
        """What is on a square: its city, else its land: "Petra", "the desert at (1, 1)"."""
        if pos in self.cities:
            return f"{card_name(self.rules, self.cities[pos])} {square(pos)}"
        if pos in self.tiles:
            return f"the {self.tiles[pos].value} at {square(pos)}"
        return f"the empty square {square(pos)}"

    def land(self, pos: Pos) -> str:
        """The tile of a square, even under a city: "the plain at (2, 0)"."""
        if pos in self.tiles:
            return f"the {self.tiles[pos].value} at {square(pos)}"
        return f"the square {square(pos)}"

    def city(self, pos: Pos) -> str:
        return card_name(self.rules, self.cities[pos]) if pos in self.cities else square(pos)

    # -- telling ----------------------------------------------------------------------------

    def tell(self, events: Iterable[gr.Event]) -> list[tuple[str, list[str]]]:
        """The events as steps: each decision taken, with what it caused under it."""
        steps: list[tuple[str, list[str]]] = []
        for event in events:
            if isinstance(event, ActionTaken | TurnBegan):
                steps.append((self._decision(event), []))
                continue
            line = self._consequence(event)
            self._follow(event)
            if line is None:
                continue
            if not steps:
                steps.append(("", []))
            steps[-1][1].append(line)
        return steps

    def _follow(self, event: gr.Event) -> None:
        """The world after ``event``: each language tells an event from the world before it."""
        match event:
            case TilePlaced(pos=pos, land=land) | TileReplaced(pos=pos, new=land):
                self.tiles[pos] = land
            case CityPlaced(card=card, pos=pos):
                self.cities[pos] = card
            case CityDiscarded(pos=pos):
                self.cities.pop(pos, None)
            case TilesSwapped(first=first, second=second):
                self.tiles[first], self.tiles[second] = self.tiles[second], self.tiles[first]
                moved = {first: self.cities.pop(first, None), second: self.cities.pop(second, None)}
                for to, card in ((second, moved[first]), (first, moved[second])):
                    if card is not None:
                        self.cities[to] = card

    def _decision(self, event: ActionTaken | TurnBegan) -> str:
        if isinstance(event, TurnBegan):
            return f"{player(event.player)}'s turn begins."
        who = player(event.player)
        action = event.action
        only = " (his only choice, taken for him)" if event.by_engine else ""
        match action:
            case None:
                return f"{who} makes a choice this player may not see."
            case gr.DrawDisplay(card=card):
                text = f"{who} takes {self.card(card)} from the display"
            case gr.DrawDeck(kind=kind):
                text = f"{who} draws from the {kind_name(kind)} deck"
            case gr.PlayNature(card=card, pos=pos):
                text = f"{who} plays {self.card(card)} and puts its tile on {square(pos)}"
            case gr.PlayAnimals(card=card, pos=pos):
                text = f"{who} plays {self.card(card)} on {self.on(pos)}"
            case gr.PlayCity(card=card, pos=pos):
                text = f"{who} builds {self.card(card)} on {self.on(pos)}"
            case gr.Feed(city=city, source=source):
                text = f"{who} feeds {self.city(city)} from {self.on(source)}"
            case gr.Discard(card=card):
                text = f"{who} discards {self.card(card)}"
            case gr.FulfillObjective(objective=objective):
                text = f"{who} fulfils {self.card(objective)}"
            case gr.DeclineObjectives():
                text = f"{who} declines the Objectives he meets"
            case gr.PlaceCityPawn(city=city):
                text = f"{who} chooses {self.city(city)} for his pawn"
            case gr.PlaySun(pos=pos) | gr.PlayRain(pos=pos) | gr.PlayLightning(pos=pos):
                text = f"{who} plays {self.card(action.card)} on {self.on(pos)}"
            case gr.PlayEruption(pos=pos):
                text = f"{who} plays an Eruption on {self.on(pos)}"
            case gr.PlayEarthquake(first=first, second=second):
                text = f"{who} plays an Earthquake on {self.land(first)} and {self.land(second)}"
            case gr.PlayTornado():
                text = f"{who} plays a Tornado"
            case gr.Protect():
                text = f"{who} plays a Protection"
            case gr.PassProtection():
                text = f"{who} is asked whether he plays a Protection, and does not"
            case gr.NameBack(victim=victim, kind=kind):
                text = f"{who} names {kind_name(kind)}, a back in {player(victim)}'s hand"
            case gr.KeepCard(card=card):
                text = f"{who} keeps {self.card(card)}"
            case _:
                text = f"{who} decides"
        return text + only + "."

    def _consequence(self, event: gr.Event) -> str | None:
        match event:
            case CardDrawn(player=seat, kind=kind, card=card):
                return f"{_capital(self.card(card, kind))} goes into {player(seat)}'s hand."
            case DisplayRefilled(card=card):
                return f"{_capital(self.card(card))} is turned face up in the display."
            case CardDiscarded(player=seat, card=card):
                return f"{player(seat)} discards {self.card(card)}, face up."
            case NatureCardPlayed(player=seat) | PowerPlayed(player=seat):
                return f"The card goes in front of {player(seat)}."
            case TilePlaced(pos=pos, land=land):
                return f"A {land.value} tile goes on {square(pos)}."
            case AnimalsPlaced(pos=pos, count=count):
                return (
                    f"{count} animal tokens go from the bank on {self.on(pos)}; "
                    "the Animal card is discarded."
                )
            case TokensReturned(pos=pos, count=count):
                tokens = "One animal token goes" if count == 1 else f"{count} animal tokens go"
                return f"{tokens} back from {self.on(pos)} to the bank."
            case CityPlaced(card=card, pos=pos):
                where = self.on(pos)
                return f"{self.card(card)} now covers {where}."
            case SatisfactionChanged(pos=pos, before=before, after=after):
                needs = "need" if after == 1 else "needs"
                return f"{self.city(pos)} goes from {before} to {after} {needs} met."
            case CityDiscarded(pos=pos):
                name = self.city(pos)
                return (
                    f"{name} is discarded; {self.land(pos)} under it is uncovered and counts again."
                )
            case PawnPlaced(player=seat, pos=pos):
                return f"{player(seat)} puts a pawn on {self.city(pos)}."
            case CityTaken(player=seat, pos=pos, from_player=rival):
                return f"{player(seat)} takes {self.city(pos)} from {player(rival)}."
            case PawnReturned(player=seat, pos=pos):
                return f"{player(seat)}'s pawn comes back from {self.city(pos)}."
            case ObjectiveFulfilled(player=seat, objective=objective, cards=cards):
                names = cards_list(self.rules, cards)
                return (
                    f"{player(seat)} discards {names} from in front of him and puts a pawn on "
                    f"{self.card(objective)}."
                )
            case PowerCancelled(player=seat, cancelled=cancelled):
                return (
                    f"{player(seat)}'s Protection cancels the {_bare(self.card(cancelled))}: it "
                    "has no effect. Both cards stay in front of their players."
                )
            case TileReplaced(pos=pos, old=old, new=new):
                return (
                    f"The {old.value} at {square(pos)} becomes a {new.value}; the {old.value} "
                    "tile goes back to its stack."
                )
            case TilesSwapped(first=first, second=second):
                a, b = self.land(first), self.land(second)
                return f"{a[0].upper()}{a[1:]} and {b} swap places, with everything on them."
            case CardStolen(victim=victim, kind=kind, card=card):
                which = f": it is {self.card(card)}" if card is not None else ""
                taken = f"A {kind_name(kind)} card is taken at random from {player(victim)}'s hand"
                return f"{taken}{which}."
            case StolenCardsSeen(player=seat, cards=cards):
                if cards is None:
                    return f"{player(seat)} looks at the cards he took."
                seen = _list([self.card(c) for c in cards])
                return f"{player(seat)} looks at the cards he took: {seen}."
            case CardKept(player=seat, from_player=victim, card=card):
                kept = self.card(card) if card is not None else "the card"
                return f"{player(seat)} keeps {kept}, taken from {player(victim)}, in his hand."
            case GameEnded(result=result):
                if result.reason is EndReason.ALL_PAWNS_PLACED:
                    return f"{player(result.winner)} has placed all his pawns and wins."
                placed = ", ".join(f"{player(s)} {n}" for s, n in enumerate(result.pawns_placed))
                return f"The game is over. Pawns placed: {placed}. {player(result.winner)} wins."
        return None


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _bare(name: str) -> str:
    """A card's name without its article: "plain card" for "a plain card"."""
    for article in ("a ", "an "):
        if name.startswith(article):
            return name[len(article) :]
    return name


def tell(source: gr.Game | gr.Position, events: Iterable[gr.Event]) -> list[tuple[str, list[str]]]:
    """The events told from the world of ``source`` (see :meth:`Narrator.tell`)."""
    return Narrator.of(source).tell(events)


# -- German -----------------------------------------------------------------------------------
# The German rulebook's words (docs/hooks/terms.toml): every card is a "Karte" (feminine, so
# its name reads alike as subject and object), lands take their own article.

_DE_COLOURS = ("Blau", "Gelb", "Grün", "Rot", "Weiß")
_DE_LAND = {
    Land.DESERT: ("Wüste", "Wüsten", "f"),
    Land.PLAIN: ("Ebene", "Ebenen", "f"),
    Land.SWAMP: ("Sumpf", "Sümpfe", "m"),
    Land.SEA: ("Meer", "Meere", "n"),
    Land.MOUNTAIN: ("Gebirge", "Gebirge", "n"),
    Land.FOREST: ("Wald", "Wälder", "m"),
}
_DE_ARTICLE = {
    "nom": {"f": "die", "m": "der", "n": "das"},
    "acc": {"f": "die", "m": "den", "n": "das"},
    "dat": {"f": "der", "m": "dem", "n": "dem"},
}
_DE_NUMBERS = {1: "ein", 2: "zwei", 3: "drei", 4: "vier", 5: "fünf", 6: "sechs"}
_DE_POWER = {
    "sun": "Sonne",
    "rain": "Regen",
    "earthquake": "Erdbeben",
    "tornado": "Tornado",
    "protection": "Abwehr",
    "lightning": "Blitzschlag",
    "eruption": "Vulkanausbruch",
}
_DE_KIND = {"nature": "Natur", "life": "Leben", "power": "Macht"}
_DE_CITY = {
    "Athens": "Athen",
    "Carthage": "Karthago",
    "Nineveh": "Ninive",
    "Rome": "Rom",
    "Thebes": "Theben",
    "Troy": "Troja",
    "Venice": "Venedig",
}


def _de_land(land: Land, case: str = "nom") -> str:
    word, _, gender = _DE_LAND[land]
    return f"{_DE_ARTICLE[case][gender]} {word}"


def _de_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " und " + words[-1]


class GermanNarrator(Narrator):
    """Tells events in the words of the German rulebook."""

    def bare(self, card: CardId) -> str:
        """A card by its face, without article: "Natur-Karte Ebene", "Petra"."""
        face = self.rules.cards.face(card)
        match face:
            case NatureCard(land=land):
                return f"Natur-Karte {_DE_LAND[land][0]}"
            case CityCard(name=name):
                return _DE_CITY.get(name, name)
            case AnimalCard(site=site):
                where = _DE_LAND[site][0] if isinstance(site, Land) else "Stern"
                return f"Tier-Karte ({where})"
            case PowerCard(power=power):
                return f"Macht-Karte {_DE_POWER[power.value]}"
            case Objective(powers=powers) if powers:
                return "Ziel-Karte Macht"
            case Objective(lands=lands):
                return f"Ziel-Karte „{self.objective_lands(lands)}“"  # one of a kind: "die"
        raise AssertionError(face)  # pragma: no cover

    def objective_lands(self, lands: Iterable[Land]) -> str:
        counts: dict[Land, int] = {}
        for land in lands:
            counts[land] = counts.get(land, 0) + 1
        if len(counts) == 6:
            return "die sechs Landschaften"
        return _de_list(
            [
                f"{_DE_NUMBERS[n]} {_DE_LAND[land][1] if n > 1 else _DE_LAND[land][0]}"
                for land, n in counts.items()
            ]
        )

    def card(self, card: CardId | None, kind: CardKind | None = None, case: str = "nom") -> str:
        if card is None:
            what = f"{_DE_KIND[kind.value]}-Karte" if kind else "verdeckte Karte"
            return ("einer " if case == "dat" else "eine ") + what
        name = self.bare(card)
        face = self.rules.cards.face(card)
        if isinstance(face, CityCard):
            return name
        if isinstance(face, Objective) and not face.powers:
            return ("der " if case == "dat" else "die ") + name
        return ("einer " if case == "dat" else "eine ") + name

    def on(self, pos: Pos, case: str = "acc") -> str:
        if pos in self.cities:
            return f"{self.bare(self.cities[pos])} {square(pos)}"
        return self.land(pos, case)

    def land(self, pos: Pos, case: str = "acc") -> str:
        if pos in self.tiles:
            return f"{_de_land(self.tiles[pos], case)} bei {square(pos)}"
        return (
            f"dem leeren Feld {square(pos)}" if case == "dat" else f"das leere Feld {square(pos)}"
        )

    def city(self, pos: Pos) -> str:
        return self.bare(self.cities[pos]) if pos in self.cities else square(pos)

    def _decision(self, event: ActionTaken | TurnBegan) -> str:
        if isinstance(event, TurnBegan):
            return f"{_DE_COLOURS[event.player]} ist am Zug."
        who = _DE_COLOURS[event.player]
        action = event.action
        only = " (seine einzige Möglichkeit, für ihn ausgeführt)" if event.by_engine else ""
        match action:
            case None:
                return f"{who} trifft eine Wahl, die dieser Spieler nicht sehen darf."
            case gr.DrawDisplay(card=card):
                text = f"{who} nimmt {self.card(card)} aus der Auslage"
            case gr.DrawDeck(kind=kind):
                text = f"{who} zieht vom {_DE_KIND[kind.value]}-Stapel"
            case gr.PlayNature(card=card, pos=pos):
                text = f"{who} spielt {self.card(card)} und legt ihre Landschaft auf {square(pos)}"
            case gr.PlayAnimals(card=card, pos=pos):
                text = f"{who} spielt {self.card(card)} auf {self.on(pos)}"
            case gr.PlayCity(card=card, pos=pos):
                text = f"{who} baut {self.card(card)} auf {self.on(pos)}"
            case gr.Feed(city=city, source=source):
                text = f"{who} versorgt {self.city(city)} aus {self.on(source, 'dat')}"
            case gr.Discard(card=card):
                text = f"{who} legt {self.card(card)} ab"
            case gr.FulfillObjective(objective=objective):
                text = f"{who} erfüllt {self.card(objective)}"
            case gr.DeclineObjectives():
                text = f"{who} verzichtet auf die Ziele, die er erfüllt"
            case gr.PlaceCityPawn(city=city):
                text = f"{who} wählt {self.city(city)} für seine Figur"
            case gr.PlaySun(pos=pos) | gr.PlayRain(pos=pos) | gr.PlayLightning(pos=pos):
                text = f"{who} spielt {self.card(action.card)} auf {self.on(pos)}"
            case gr.PlayEruption(pos=pos):
                text = f"{who} spielt einen Vulkanausbruch auf {self.on(pos)}"
            case gr.PlayEarthquake(first=first, second=second):
                text = f"{who} spielt ein Erdbeben auf {self.land(first)} und {self.land(second)}"
            case gr.PlayTornado():
                text = f"{who} spielt einen Tornado"
            case gr.Protect():
                text = f"{who} spielt eine Abwehr"
            case gr.PassProtection():
                text = f"{who} wird gefragt, ob er eine Abwehr spielt, und verzichtet"
            case gr.NameBack(victim=victim, kind=kind):
                text = (
                    f"{who} nennt {_DE_KIND[kind.value]}, eine Rückseite auf der Hand von "
                    f"{_DE_COLOURS[victim]}"
                )
            case gr.KeepCard(card=card):
                text = f"{who} behält {self.card(card)}"
            case _:
                text = f"{who} entscheidet"
        return text + only + "."

    def _consequence(self, event: gr.Event) -> str | None:
        c = _DE_COLOURS
        match event:
            case CardDrawn(player=seat, kind=kind, card=card):
                return f"{_capital(self.card(card, kind))} kommt auf die Hand von {c[seat]}."
            case DisplayRefilled(card=card):
                return f"{_capital(self.card(card))} wird offen in die Auslage gelegt."
            case CardDiscarded(player=seat, card=card):
                return f"{c[seat]} legt {self.card(card)} offen ab."
            case NatureCardPlayed(player=seat) | PowerPlayed(player=seat):
                return f"Die Karte liegt jetzt vor {c[seat]}."
            case TilePlaced(pos=pos, land=land):
                return f"Eine Landschaft {_DE_LAND[land][0]} kommt auf {square(pos)}."
            case AnimalsPlaced(pos=pos, count=count):
                return (
                    f"{count} Tiermarker kommen aus dem Vorrat auf {self.on(pos)}; "
                    "die Tier-Karte wird abgelegt."
                )
            case TokensReturned(pos=pos, count=count):
                tokens = "Ein Tiermarker kommt" if count == 1 else f"{count} Tiermarker kommen"
                where = self.on(pos, "dat")
                where = "vom " + where[4:] if where.startswith("dem ") else "von " + where
                return f"{tokens} {where} zurück in den Vorrat."
            case CityPlaced(card=card, pos=pos):
                where = self.on(pos, "dat")
                return f"{self.card(card)} liegt jetzt auf {where}."
            case SatisfactionChanged(pos=pos, before=before, after=after):
                way = "steigt" if after > before else "sinkt"
                return f"Die Zufriedenheit von {self.city(pos)} {way} von {before} auf {after}."
            case CityDiscarded(pos=pos):
                name = self.city(pos)
                return (
                    f"{name} wird abgelegt; {self.land(pos, 'nom')} darunter ist wieder frei "
                    "und zählt erneut."
                )
            case PawnPlaced(player=seat, pos=pos):
                return f"{c[seat]} stellt eine Figur auf {self.city(pos)}."
            case CityTaken(player=seat, pos=pos, from_player=rival):
                return f"{c[seat]} übernimmt {self.city(pos)} von {c[rival]}."
            case PawnReturned(player=seat, pos=pos):
                return f"Die Figur von {c[seat]} kommt von {self.city(pos)} zurück."
            case ObjectiveFulfilled(player=seat, objective=objective, cards=cards):
                return (
                    f"Von den Karten vor {c[seat]} werden {self.cards_list(cards)} abgelegt; "
                    f"{c[seat]} stellt eine Figur auf {self.card(objective)}."
                )
            case PowerCancelled(player=seat, cancelled=cancelled):
                return (
                    f"Die Abwehr von {c[seat]} hebt die {self.bare(cancelled)} auf: sie "
                    "bleibt ohne Wirkung. Beide Karten bleiben vor ihren Spielern liegen."
                )
            case TileReplaced(pos=pos, old=old, new=new):
                return (
                    f"Aus {_de_land(old, 'dat')} bei {square(pos)} wird "
                    f"{'eine' if _DE_LAND[new][2] == 'f' else 'ein'} {_DE_LAND[new][0]}; die "
                    f"Landschaft {_DE_LAND[old][0]} kommt zurück auf ihren Stapel."
                )
            case TilesSwapped(first=first, second=second):
                a, b = self.land(first, "nom"), self.land(second, "nom")
                return f"{_capital(a)} und {b} tauschen die Plätze, mit allem, was darauf liegt."
            case CardStolen(victim=victim, kind=kind, card=card):
                which = f": es ist {self.card(card)}" if card is not None else ""
                taken = (
                    f"Eine {_DE_KIND[kind.value]}-Karte wird zufällig aus der Hand von "
                    f"{c[victim]} gezogen"
                )
                return f"{taken}{which}."
            case StolenCardsSeen(player=seat, cards=cards):
                if cards is None:
                    return f"{c[seat]} sieht sich die übernommenen Karten an."
                seen = _de_list([self.card(x) for x in cards])
                return f"{c[seat]} sieht sich die übernommenen Karten an: {seen}."
            case CardKept(player=seat, from_player=victim, card=card):
                kept = self.card(card) if card is not None else "die Karte"
                return f"{c[seat]} behält {kept} von {c[victim]} auf der Hand."
            case GameEnded(result=result):
                if result.reason is EndReason.ALL_PAWNS_PLACED:
                    return f"{c[result.winner]} hat alle Figuren eingesetzt und gewinnt."
                placed = ", ".join(f"{c[s]} {n}" for s, n in enumerate(result.pawns_placed))
                winner = c[result.winner]
                return f"Das Spiel ist zu Ende. Eingesetzte Figuren: {placed}. {winner} gewinnt."
        return None

    def cards_list(self, cards: Iterable[CardId]) -> str:
        counts: dict[str, int] = {}
        for card in cards:
            name = self.bare(card)
            counts[name] = counts.get(name, 0) + 1
        return _de_list(
            [
                (name if name[0].isupper() and "Karte" not in name else f"eine {name}")
                if n == 1
                else f"{_DE_NUMBERS[n]} {name.replace('Karte', 'Karten', 1)}"
                for name, n in counts.items()
            ]
        )


# -- French -----------------------------------------------------------------------------------
# The French rulebook's words (docs/hooks/terms.toml): every card is a "carte" (feminine),
# lands take their own article, "de le" is "du".

_FR_COLOURS = ("Bleu", "Jaune", "Vert", "Rouge", "Blanc")
_FR_LAND = {
    Land.DESERT: ("désert", "déserts", "m"),
    Land.PLAIN: ("plaine", "plaines", "f"),
    Land.SWAMP: ("marais", "marais", "m"),
    Land.SEA: ("mer", "mers", "f"),
    Land.MOUNTAIN: ("montagne", "montagnes", "f"),
    Land.FOREST: ("forêt", "forêts", "f"),
}
_FR_NUMBERS = {1: "un", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six"}
_FR_POWER = {
    "sun": "Soleil",
    "rain": "Pluie",
    "earthquake": "Séisme",
    "tornado": "Tornade",
    "protection": "Protection",
    "lightning": "Éclair",
    "eruption": "Éruption",
}
_FR_KIND = {"nature": "Nature", "life": "Vie", "power": "Pouvoir"}
_FR_CITY = {
    "Alexandria": "Alexandrie",
    "Athens": "Athènes",
    "Babylon": "Babylone",
    "Jericho": "Jéricho",
    "Lhasa": "Lhassa",
    "Nineveh": "Ninive",
    "Petra": "Pétra",
    "Sparta": "Sparte",
    "Thebes": "Thèbes",
    "Troy": "Troie",
    "Venice": "Venise",
}


def _fr_land(land: Land) -> str:
    word, _, gender = _FR_LAND[land]
    return ("le " if gender == "m" else "la ") + word


def _fr_of(phrase: str) -> str:
    """``de`` before ``phrase``: "du désert", "de la plaine", "de Pétra"."""
    return "du " + phrase[3:] if phrase.startswith("le ") else "de " + phrase


def _fr_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " et " + words[-1]


class FrenchNarrator(Narrator):
    """Tells events in the words of the French rulebook."""

    def bare(self, card: CardId) -> str:
        """A card by its face, without article: "carte plaine", "Pétra"."""
        face = self.rules.cards.face(card)
        match face:
            case NatureCard(land=land):
                return f"carte {_FR_LAND[land][0]}"
            case CityCard(name=name):
                return _FR_CITY.get(name, name)
            case AnimalCard(site=site):
                where = _FR_LAND[site][0] if isinstance(site, Land) else "étoile"
                return f"carte animaux ({where})"
            case PowerCard(power=power):
                return f"carte {_FR_POWER[power.value]}"
            case Objective(powers=powers) if powers:
                return "Objectif « Pouvoir »"
            case Objective(lands=lands):
                return f"Objectif « {self.objective_lands(lands)} »"
        raise AssertionError(face)  # pragma: no cover

    def objective_lands(self, lands: Iterable[Land]) -> str:
        counts: dict[Land, int] = {}
        for land in lands:
            counts[land] = counts.get(land, 0) + 1
        if len(counts) == 6:
            return "les six paysages"
        return _fr_list(
            [
                f"{_FR_NUMBERS[n] if n > 1 else ('un' if _FR_LAND[land][2] == 'm' else 'une')} "
                f"{_FR_LAND[land][1] if n > 1 else _FR_LAND[land][0]}"
                for land, n in counts.items()
            ]
        )

    def card(self, card: CardId | None, kind: CardKind | None = None) -> str:
        if card is None:
            return f"une carte {_FR_KIND[kind.value]}" if kind else "une carte cachée"
        name = self.bare(card)
        face = self.rules.cards.face(card)
        if isinstance(face, CityCard):
            return name
        if isinstance(face, Objective):
            return ("un " if face.powers else "l'") + name
        return "une " + name

    def on(self, pos: Pos) -> str:
        if pos in self.cities:
            return f"{self.bare(self.cities[pos])} {square(pos)}"
        return self.land(pos)

    def land(self, pos: Pos) -> str:
        if pos in self.tiles:
            return f"{_fr_land(self.tiles[pos])} en {square(pos)}"
        return f"la case vide {square(pos)}"

    def city(self, pos: Pos) -> str:
        return self.bare(self.cities[pos]) if pos in self.cities else square(pos)

    def _decision(self, event: ActionTaken | TurnBegan) -> str:
        c = _FR_COLOURS
        if isinstance(event, TurnBegan):
            return f"C'est au tour de {c[event.player]}."
        who = c[event.player]
        action = event.action
        only = " (son seul choix possible, joué d’office)" if event.by_engine else ""
        match action:
            case None:
                return f"{who} fait un choix que ce joueur ne peut pas voir."
            case gr.DrawDisplay(card=card):
                text = f"{who} prend {self.card(card)} face visible"
            case gr.DrawDeck(kind=kind):
                text = f"{who} pioche dans la pile {_FR_KIND[kind.value]}"
            case gr.PlayNature(card=card, pos=pos):
                text = f"{who} joue {self.card(card)} et pose sa tuile en {square(pos)}"
            case gr.PlayAnimals(card=card, pos=pos):
                text = f"{who} joue {self.card(card)} sur {self.on(pos)}"
            case gr.PlayCity(card=card, pos=pos):
                text = f"{who} pose la cité {self.card(card)} sur {self.on(pos)}"
            case gr.Feed(city=city, source=source):
                text = f"{who} nourrit {self.city(city)} avec un jeton {_fr_of(self.on(source))}"
            case gr.Discard(card=card):
                text = f"{who} défausse {self.card(card)}"
            case gr.FulfillObjective(objective=objective):
                text = f"{who} réalise {self.card(objective)}"
            case gr.DeclineObjectives():
                text = f"{who} ne réalise pas les Objectifs qu'il remplit"
            case gr.PlaceCityPawn(city=city):
                text = f"{who} choisit {self.city(city)} pour son pion peuple"
            case gr.PlaySun(pos=pos) | gr.PlayRain(pos=pos) | gr.PlayLightning(pos=pos):
                text = f"{who} joue {self.card(action.card)} sur {self.on(pos)}"
            case gr.PlayEruption(pos=pos):
                text = f"{who} joue une Éruption sur {self.on(pos)}"
            case gr.PlayEarthquake(first=first, second=second):
                text = f"{who} joue un Séisme sur {self.land(first)} et {self.land(second)}"
            case gr.PlayTornado():
                text = f"{who} joue une Tornade"
            case gr.Protect():
                text = f"{who} joue une Protection"
            case gr.PassProtection():
                text = f"On demande à {who} s'il joue une Protection : il n'en joue pas"
            case gr.NameBack(victim=victim, kind=kind):
                text = f"{who} désigne une carte {_FR_KIND[kind.value]} dans la main de {c[victim]}"
            case gr.KeepCard(card=card):
                text = f"{who} garde {self.card(card)}"
            case _:
                text = f"{who} décide"
        return text + only + "."

    def _consequence(self, event: gr.Event) -> str | None:
        c = _FR_COLOURS
        match event:
            case CardDrawn(player=seat, kind=kind, card=card):
                return f"{_capital(self.card(card, kind))} va dans la main de {c[seat]}."
            case DisplayRefilled(card=card):
                return f"{_capital(self.card(card))} est révélée face visible."
            case CardDiscarded(player=seat, card=card):
                return f"{c[seat]} défausse {self.card(card)}, face visible."
            case NatureCardPlayed(player=seat) | PowerPlayed(player=seat):
                return f"La carte est posée devant {c[seat]}."
            case TilePlaced(pos=pos, land=land):
                return f"Une tuile {_FR_LAND[land][0]} est posée en {square(pos)}."
            case AnimalsPlaced(pos=pos, count=count):
                return (
                    f"{count} jetons animaux vont de la réserve sur {self.on(pos)} ; "
                    "la carte animaux est défaussée."
                )
            case TokensReturned(pos=pos, count=count):
                if count == 1:
                    return f"Un jeton animaux quitte {self.on(pos)} et retourne à la réserve."
                return f"{count} jetons animaux quittent {self.on(pos)} et retournent à la réserve."
            case CityPlaced(card=card, pos=pos):
                where = self.on(pos)
                return f"{self.card(card)} couvre maintenant {where}."
            case SatisfactionChanged(pos=pos, before=before, after=after):
                needs = "besoin satisfait" if after <= 1 else "besoins satisfaits"
                return f"{self.city(pos)} passe de {before} à {after} {needs}."
            case CityDiscarded(pos=pos):
                name = self.city(pos)
                return (
                    f"{name} est défaussée ; {self.land(pos)}, en dessous, redevient visible "
                    "et compte à nouveau."
                )
            case PawnPlaced(player=seat, pos=pos):
                return f"{c[seat]} pose un pion peuple sur {self.city(pos)}."
            case CityTaken(player=seat, pos=pos, from_player=rival):
                return f"{c[seat]} prend {self.city(pos)} à {c[rival]}."
            case PawnReturned(player=seat, pos=pos):
                return f"Le pion peuple de {c[seat]} quitte {self.city(pos)}."
            case ObjectiveFulfilled(player=seat, objective=objective, cards=cards):
                return (
                    f"{c[seat]} défausse {self.cards_list(cards)} qu'il avait devant lui et "
                    f"pose un pion peuple sur {self.card(objective)}."
                )
            case PowerCancelled(player=seat, cancelled=cancelled):
                return (
                    f"La Protection de {c[seat]} annule la {self.bare(cancelled)} : elle reste "
                    "sans effet. Les deux cartes restent devant leurs joueurs."
                )
            case TileReplaced(pos=pos, old=old, new=new):
                article = "un" if _FR_LAND[new][2] == "m" else "une"
                return (
                    f"{_capital(_fr_land(old))} en {square(pos)} devient {article} "
                    f"{_FR_LAND[new][0]} ; la tuile {_FR_LAND[old][0]} retourne sur sa pile."
                )
            case TilesSwapped(first=first, second=second):
                a, b = self.land(first), self.land(second)
                return f"{_capital(a)} et {b} échangent leurs places, avec tout ce qui s'y trouve."
            case CardStolen(victim=victim, kind=kind, card=card):
                which = f" : c'est {self.card(card)}" if card is not None else ""
                taken = (
                    f"Une carte {_FR_KIND[kind.value]} est prise au hasard dans la main de "
                    f"{c[victim]}"
                )
                return f"{taken}{which}."
            case StolenCardsSeen(player=seat, cards=cards):
                if cards is None:
                    return f"{c[seat]} regarde les cartes qu'il a prises."
                seen = _fr_list([self.card(x) for x in cards])
                return f"{c[seat]} regarde les cartes qu'il a prises : {seen}."
            case CardKept(player=seat, from_player=victim, card=card):
                kept = self.card(card) if card is not None else "la carte"
                return f"{c[seat]} garde en main {kept}, prise à {c[victim]}."
            case GameEnded(result=result):
                winner = c[result.winner]
                if result.reason is EndReason.ALL_PAWNS_PLACED:
                    return f"{winner} a posé tous ses pions peuple et gagne."
                placed = ", ".join(f"{c[s]} {n}" for s, n in enumerate(result.pawns_placed))
                return f"La partie est finie. Pions peuple posés : {placed}. {winner} gagne."
        return None

    def cards_list(self, cards: Iterable[CardId]) -> str:
        counts: dict[str, int] = {}
        for card in cards:
            name = self.bare(card)
            counts[name] = counts.get(name, 0) + 1
        return _fr_list(
            [
                (name if not name.startswith("carte") else f"une {name}")
                if n == 1
                else f"{_FR_NUMBERS[n]} {name.replace('carte', 'cartes', 1)}"
                for name, n in counts.items()
            ]
        )


# -- Hungarian --------------------------------------------------------------------------------
# The Hungarian rulebook's words (docs/hooks/terms.toml). A city is named with "városa", whose
# suffixes do not depend on the name ("Róma városára"); the colours carry their own.

_HU_COLOURS = ("Kék", "Sárga", "Zöld", "Piros", "Fehér")
_HU_FROM = ("Kéktől", "Sárgától", "Zöldtől", "Pirostól", "Fehértől")
_HU_LAND = {  # the land, onto it, off it, plural, object
    Land.DESERT: ("sivatag", "sivatagra", "sivatagról", "sivatagok", "sivatagot"),
    Land.PLAIN: ("mező", "mezőre", "mezőről", "mezők", "mezőt"),
    Land.SWAMP: ("mocsár", "mocsárra", "mocsárról", "mocsarak", "mocsarat"),
    Land.SEA: ("tenger", "tengerre", "tengerről", "tengerek", "tengert"),
    Land.MOUNTAIN: ("hegység", "hegységre", "hegységről", "hegységek", "hegységet"),
    Land.FOREST: ("erdő", "erdőre", "erdőről", "erdők", "erdőt"),
}
_HU_CASE = {"nom": 0, "onto": 1, "from": 2, "acc": 4}
_HU_CITY_CASE = {"nom": "", "onto": " városára", "from": " városáról", "acc": " városát"}
_HU_NUMBERS = {1: "egy", 2: "két", 3: "három", 4: "négy", 5: "öt", 6: "hat"}
_HU_POWER = {
    "sun": "Nap",
    "rain": "Eső",
    "earthquake": "Földrengés",
    "tornado": "Tornádó",
    "protection": "Védelem",
    "lightning": "Villámlás",
    "eruption": "Vulkán kitörés",
}
_HU_KIND = {"nature": "Természet", "life": "Élet", "power": "Hatalom"}
_HU_CITY = {
    "Athens": "Athén",
    "Babylon": "Babilon",
    "Carthage": "Karthágó",
    "Jericho": "Jerikó",
    "Kyoto": "Kiotó",
    "Lhasa": "Lhásza",
    "Memphis": "Memphisz",
    "Nineveh": "Ninive",
    "Rome": "Róma",
    "Sparta": "Spárta",
    "Thebes": "Théba",
    "Troy": "Trója",
    "Venice": "Velence",
}


def _hu_the(word: str) -> str:
    """The definite article before ``word``: "az erdő", "a mező"."""
    return ("az " if word[0].lower() in "aáeéiíoóöőuúüű" else "a ") + word


def _hu_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " és " + words[-1]


class HungarianNarrator(Narrator):
    """Tells events in the words of the Hungarian rulebook."""

    def bare(self, card: CardId) -> str:
        """A card by its face, without article: "mező kártya", "Petra"."""
        face = self.rules.cards.face(card)
        match face:
            case NatureCard(land=land):
                return f"{_HU_LAND[land][0]} kártya"
            case CityCard(name=name):
                return _HU_CITY.get(name, name)
            case AnimalCard(site=site):
                where = _HU_LAND[site][0] if isinstance(site, Land) else "csillag"
                return f"állat kártya ({where})"
            case PowerCard(power=power):
                return f"{_HU_POWER[power.value]} kártya"
            case Objective(powers=powers) if powers:
                return "hatalom Cél kártya"
            case Objective(lands=lands):
                return f"Cél kártya ({self.objective_lands(lands)})"
        raise AssertionError(face)  # pragma: no cover

    def objective_lands(self, lands: Iterable[Land]) -> str:
        counts: dict[Land, int] = {}
        for land in lands:
            counts[land] = counts.get(land, 0) + 1
        if len(counts) == 6:
            return "a hat tájtípus"
        return _hu_list([f"{_HU_NUMBERS[n]} {_HU_LAND[land][0]}" for land, n in counts.items()])

    def card(self, card: CardId | None, kind: CardKind | None = None, case: str = "nom") -> str:
        """A card: "egy mező kártya", as object "egy mező kártyát"; a city by its name."""
        if card is None:
            name = f"{_HU_KIND[kind.value]} kártya" if kind else "rejtett kártya"
            article = "egy "
        else:
            name = self.bare(card)
            face = self.rules.cards.face(card)
            if isinstance(face, CityCard):
                return name + (" város kártyát" if case == "acc" else "")
            article = "a " if isinstance(face, Objective) else "egy "
        if case == "acc":
            name = name.replace("kártya", "kártyát", 1)
        elif case == "onto":
            name = name.replace("kártya", "kártyára", 1)
        return article + name

    def on(self, pos: Pos, case: str = "onto") -> str:
        if pos in self.cities:
            return f"{self.bare(self.cities[pos])}{_HU_CITY_CASE[case]} {square(pos)}"
        return self.land(pos, case)

    def land(self, pos: Pos, case: str = "nom") -> str:
        if pos in self.tiles:
            return f"{_hu_the(_HU_LAND[self.tiles[pos]][_HU_CASE[case]])} {square(pos)}"
        return f"az üres mező {square(pos)}"

    def city(self, pos: Pos, case: str = "nom") -> str:
        if pos in self.cities:
            return self.bare(self.cities[pos]) + _HU_CITY_CASE[case]
        return square(pos)

    def _decision(self, event: ActionTaken | TurnBegan) -> str:
        c = _HU_COLOURS
        if isinstance(event, TurnBegan):
            return f"{c[event.player]} köre kezdődik."
        who = c[event.player]
        action = event.action
        only = " (egyetlen lehetősége, helyette megtéve)" if event.by_engine else ""
        match action:
            case None:
                return f"{who} választ; ezt ez a játékos nem láthatja."
            case gr.DrawDisplay(card=card):
                text = f"{who} elvesz a felfordított lapok közül: {self.card(card)}"
            case gr.DrawDeck(kind=kind):
                text = f"{who} húz {_hu_the(_HU_KIND[kind.value])} pakliból"
            case gr.PlayNature(card=card, pos=pos):
                text = (
                    f"{who} kijátszik {self.card(card, case='acc')}, és a tájlapkáját ide "
                    f"teszi: {square(pos)}"
                )
            case gr.PlayAnimals(card=card, pos=pos):
                text = f"{who} kijátszik {self.card(card, case='acc')} {self.on(pos)}"
            case gr.PlayCity(card=card, pos=pos):
                text = f"{who} felépíti {self.bare(card)} városát {self.on(pos)}"
            case gr.Feed(city=city, source=source):
                text = f"{who} ellátja {self.city(city, 'acc')} {self.on(source, 'from')}"
            case gr.Discard(card=card):
                text = f"{who} eldob {self.card(card, case='acc')}"
            case gr.FulfillObjective(objective=objective):
                text = f"{who} teljesíti {self.card(objective, case='acc')}"
            case gr.DeclineObjectives():
                text = f"{who} nem teljesíti a Cél kártyákat, amelyeket teljesíthetne"
            case gr.PlaceCityPawn(city=city):
                text = f"{who} {self.city(city, 'onto')} teszi a bábuját"
            case gr.PlaySun(pos=pos) | gr.PlayRain(pos=pos) | gr.PlayLightning(pos=pos):
                text = f"{who} kijátszik {self.card(action.card, case='acc')} {self.on(pos)}"
            case gr.PlayEruption(pos=pos):
                text = f"{who} kijátszik egy Vulkán kitörés kártyát {self.on(pos)}"
            case gr.PlayEarthquake(first=first, second=second):
                text = (
                    f"{who} kijátszik egy Földrengés kártyát {self.land(first, 'onto')} és "
                    f"{self.land(second, 'onto')}"
                )
            case gr.PlayTornado():
                text = f"{who} kijátszik egy Tornádó kártyát"
            case gr.Protect():
                text = f"{who} kijátszik egy Védelem kártyát"
            case gr.PassProtection():
                text = f"{who} kijátszhatna egy Védelem kártyát, de nem teszi"
            case gr.NameBack(victim=victim, kind=kind):
                text = f"{who} {_HU_KIND[kind.value]} kártyát kér {_HU_FROM[victim]}"
            case gr.KeepCard(card=card):
                text = f"{who} ezt a lapot tartja meg: {self.card(card)}"
            case _:
                text = f"{who} dönt"
        return text + only + "."

    def _consequence(self, event: gr.Event) -> str | None:
        c = _HU_COLOURS
        match event:
            case CardDrawn(player=seat, kind=kind, card=card):
                return f"{_capital(self.card(card, kind))} {c[seat]} kezébe kerül."
            case DisplayRefilled(card=card):
                return f"Új felfordított lap: {self.card(card)}."
            case CardDiscarded(player=seat, card=card):
                return f"{c[seat]} felfordítva eldob {self.card(card, case='acc')}."
            case NatureCardPlayed(player=seat) | PowerPlayed(player=seat):
                return f"A kártya {c[seat]} elé kerül."
            case TilePlaced(pos=pos, land=land):
                return f"Egy {_HU_LAND[land][0]} tájlapka kerül ide: {square(pos)}."
            case AnimalsPlaced(pos=pos, count=count):
                return (
                    f"{count} állatjelző kerül a bankból {self.on(pos)}; az állat kártyát eldobják."
                )
            case TokensReturned(pos=pos, count=count):
                tokens = "Egy állatjelző" if count == 1 else f"{count} állatjelző"
                return f"{tokens} visszakerül {self.on(pos, 'from')} a bankba."
            case CityPlaced(card=card, pos=pos):
                where = self.on(pos, "acc")
                return f"{self.bare(card)} mostantól lefedi {where}."
            case SatisfactionChanged(pos=pos, before=before, after=after):
                return f"{self.city(pos)}: {before} helyett most {after} teljesült szükséglet."
            case CityDiscarded(pos=pos):
                name = self.city(pos, "acc")
                under = self.land(pos)
                return f"{_capital(name)} eldobják; {under} alatta ismét szabad, és újra számít."
            case PawnPlaced(player=seat, pos=pos):
                return f"{c[seat]} bábut tesz {self.city(pos, 'onto')}."
            case CityTaken(player=seat, pos=pos, from_player=rival):
                return f"{c[seat]} elveszi {self.city(pos, 'acc')} {_HU_FROM[rival]}."
            case PawnReturned(player=seat, pos=pos):
                return f"{c[seat]} bábuja lekerül {self.city(pos, 'from')}."
            case ObjectiveFulfilled(player=seat, objective=objective, cards=cards):
                return (
                    f"{c[seat]} eldobja az előtte lévő lapok közül ezeket: "
                    f"{self.cards_list(cards)}; majd bábut tesz "
                    f"{self.card(objective, case='onto')}."
                )
            case PowerCancelled(player=seat, cancelled=cancelled):
                return (
                    f"{c[seat]} Védelme hatástalanítja "
                    f"{_hu_the(self.bare(cancelled)).replace('kártya', 'kártyát', 1)}: "
                    "nincs hatása. Mindkét kártya a játékosa előtt marad."
                )
            case TileReplaced(pos=pos, old=old, new=new):
                return (
                    f"{_capital(_hu_the(_HU_LAND[old][0]))} {square(pos)} helyén "
                    f"{_HU_LAND[new][0]} lesz; {_hu_the(_HU_LAND[old][0])} tájlapka visszakerül "
                    "a kupacába."
                )
            case TilesSwapped(first=first, second=second):
                a, b = self.land(first), self.land(second)
                return f"{_capital(a)} és {b} helyet cserél, mindazzal, ami rajtuk van."
            case CardStolen(victim=victim, kind=kind, card=card):
                which = f": {self.card(card)}" if card is not None else ""
                return (
                    f"Egy {_HU_KIND[kind.value]} kártya kerül ki véletlenszerűen "
                    f"{c[victim]} kezéből{which}."
                )
            case StolenCardsSeen(player=seat, cards=cards):
                if cards is None:
                    return f"{c[seat]} megnézi az elvett lapokat."
                seen = _hu_list([self.card(x) for x in cards])
                return f"{c[seat]} megnézi az elvett lapokat: {seen}."
            case CardKept(player=seat, from_player=victim, card=card):
                kept = f": {self.card(card)}" if card is not None else ""
                return (
                    f"{c[seat]} a kezében tartja a lapot, amelyet {_HU_FROM[victim]} vett el{kept}."
                )
            case GameEnded(result=result):
                winner = c[result.winner]
                if result.reason is EndReason.ALL_PAWNS_PLACED:
                    return f"{winner} letette az összes bábuját, és nyer."
                placed = ", ".join(f"{c[s]} {n}" for s, n in enumerate(result.pawns_placed))
                return f"Vége a játéknak. Letett bábuk: {placed}. {winner} nyer."
        return None

    def cards_list(self, cards: Iterable[CardId]) -> str:
        counts: dict[str, int] = {}
        for card in cards:
            name = self.bare(card)
            counts[name] = counts.get(name, 0) + 1
        return _hu_list(
            [f"{_HU_NUMBERS[n]} {name}" if "kártya" in name else name for name, n in counts.items()]
        )


NARRATORS: dict[str, type[Narrator]] = {
    "en": Narrator,
    "de": GermanNarrator,
    "fr": FrenchNarrator,
    "hu": HungarianNarrator,
}
"""The narrator of each language the steps are told in."""


def retold(narrator: Narrator, language: str) -> Narrator:
    """A fresh narrator in ``language`` that starts from where ``narrator`` starts."""
    return NARRATORS[language](narrator.rules, dict(narrator.tiles), dict(narrator.cities))
