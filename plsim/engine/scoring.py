"""The columns of a round's report row (``GameResult.round_rows``), one per seat and round."""

ROUND_COLUMNS = (
    "round", "seat", "vp", "coins", "income", "settlements", "cities", "walls", "developments",
    "garrison_troops", "commanded_troops", "generals", "captives_held", "judge_titles", "king",
    "tabernacle", "hand_size", "wrath", "invader_pairs",
)
