"""gaia-rules: the rules engine for the card-and-tile game Gaïa.

Everything a front end, a bot or a server needs is reachable from here::

    import gaia_rules as gr

    game = gr.new_game(players=4, rules=gr.Rules.basic(), seed=2024)
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[0])
    print(game.result)
"""

from gaia_rules.actions import (
    Action,
    DeclineObjectives,
    Discard,
    DrawDeck,
    DrawDisplay,
    Feed,
    FulfillObjective,
    PlaceCityPawn,
    PlayAnimals,
    PlayCity,
    PlayNature,
)
from gaia_rules.cards import (
    AnimalCard,
    CardId,
    CityCard,
    Face,
    NatureCard,
    Objective,
    PowerCard,
)
from gaia_rules.decisions import (
    ChooseAction,
    ChooseFeeding,
    ChooseLimitDiscard,
    ChooseObjective,
    ChoosePawnCities,
    Decision,
)
from gaia_rules.errors import (
    GaiaRulesError,
    IllegalActionError,
    ManifestError,
    PositionError,
    RecordError,
    RulesError,
)
from gaia_rules.events import (
    ActionTaken,
    AnimalsPlaced,
    CardDiscarded,
    CardDrawn,
    CityDiscarded,
    CityPlaced,
    DisplayRefilled,
    EndReason,
    Event,
    GameEnded,
    NatureCardPlayed,
    ObjectiveFulfilled,
    PawnPlaced,
    PawnReturned,
    Result,
    SatisfactionChanged,
    TilePlaced,
    TokensReturned,
    TurnBegan,
)
from gaia_rules.game import Game, new_game
from gaia_rules.manifest import Edition, Manifest
from gaia_rules.rules import Feeding, FourNeedDrop, Level, Objectives, Rules
from gaia_rules.state import CityState, GameState
from gaia_rules.views import View
from gaia_rules.vocabulary import (
    ANIMALS,
    LANDS,
    STAR,
    Animals,
    CardKind,
    Land,
    Need,
    Pos,
    Power,
    Site,
    Star,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "ANIMALS",
    "LANDS",
    "STAR",
    "Action",
    "ActionTaken",
    "AnimalCard",
    "Animals",
    "AnimalsPlaced",
    "CardDiscarded",
    "CardDrawn",
    "CardId",
    "CardKind",
    "ChooseAction",
    "ChooseFeeding",
    "ChooseLimitDiscard",
    "ChooseObjective",
    "ChoosePawnCities",
    "CityCard",
    "CityDiscarded",
    "CityPlaced",
    "CityState",
    "Decision",
    "DeclineObjectives",
    "Discard",
    "DisplayRefilled",
    "DrawDeck",
    "DrawDisplay",
    "Edition",
    "EndReason",
    "Event",
    "Face",
    "Feed",
    "Feeding",
    "FourNeedDrop",
    "FulfillObjective",
    "GaiaRulesError",
    "Game",
    "GameEnded",
    "GameState",
    "IllegalActionError",
    "Land",
    "Level",
    "Manifest",
    "ManifestError",
    "NatureCard",
    "NatureCardPlayed",
    "Need",
    "Objective",
    "ObjectiveFulfilled",
    "Objectives",
    "PawnPlaced",
    "PawnReturned",
    "PlaceCityPawn",
    "PlayAnimals",
    "PlayCity",
    "PlayNature",
    "Pos",
    "PositionError",
    "Power",
    "PowerCard",
    "RecordError",
    "Result",
    "Rules",
    "RulesError",
    "SatisfactionChanged",
    "Site",
    "Star",
    "TilePlaced",
    "TokensReturned",
    "TurnBegan",
    "View",
    "new_game",
]
