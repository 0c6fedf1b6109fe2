// Word lists for the sample database, written for Quarry (no Faker locale data). Product vocabulary follows the
// shape of Metabase's sample (adjective + material + noun) as described in reference/sample-database.md.

export const PRODUCT_ADJECTIVES = [
  'Small', 'Ergonomic', 'Rustic', 'Intelligent', 'Gorgeous', 'Incredible', 'Fantastic', 'Practical', 'Sleek',
  'Awesome', 'Enormous', 'Mediocre', 'Synergistic', 'Heavy-Duty', 'Lightweight', 'Aerodynamic', 'Durable',
] as const;

export const PRODUCT_MATERIALS = [
  'Steel', 'Wooden', 'Concrete', 'Plastic', 'Cotton', 'Granite', 'Rubber', 'Leather', 'Silk', 'Wool', 'Linen',
  'Marble', 'Iron', 'Bronze', 'Copper', 'Aluminum', 'Paper',
] as const;

export const PRODUCT_NOUNS = [
  'Chair', 'Car', 'Computer', 'Gloves', 'Pants', 'Shirt', 'Table', 'Shoes', 'Hat', 'Plate', 'Knife', 'Bottle', 'Coat',
  'Lamp', 'Keyboard', 'Bag', 'Bench', 'Clock', 'Watch', 'Wallet', 'Toucan',
] as const;

export const FIRST_NAMES = [
  'Aaron', 'Abby', 'Ada', 'Adele', 'Adrian', 'Agnes', 'Alan', 'Albert', 'Alec', 'Alice', 'Alma', 'Alvin', 'Amara',
  'Amos', 'Andre', 'Angela', 'Anika', 'Ansel', 'April', 'Arden', 'Arlo', 'Arthur', 'Astrid', 'Audrey', 'Avery',
  'Barney', 'Beatrice', 'Benny', 'Bernard', 'Bertha', 'Bianca', 'Blair', 'Bonnie', 'Boris', 'Brenda', 'Brooke',
  'Bruno', 'Caleb', 'Callie', 'Camille', 'Carl', 'Carmen', 'Cassie', 'Cecil', 'Celeste', 'Chester', 'Clara',
  'Claude', 'Cleo', 'Clifford', 'Colette', 'Conrad', 'Cora', 'Cyrus', 'Daisy', 'Dale', 'Damon', 'Daphne', 'Darius',
  'Delia', 'Dennis', 'Dexter', 'Dina', 'Dolores', 'Donovan', 'Dora', 'Duncan', 'Edgar', 'Edith', 'Edwin', 'Elena',
  'Eli', 'Eliza', 'Ellis', 'Elmer', 'Eloise', 'Emmett', 'Enid', 'Ernest', 'Estelle', 'Ethel', 'Eugene', 'Eva',
  'Faye', 'Felix', 'Fern', 'Fiona', 'Floyd', 'Frances', 'Frida', 'Gail', 'Garrett', 'Gemma', 'Gideon', 'Gilbert',
  'Gloria', 'Gordon', 'Greta', 'Gus', 'Gwen', 'Hank', 'Harriet', 'Hazel', 'Hector', 'Helga', 'Herman', 'Hilda',
  'Homer', 'Hugo', 'Ida', 'Imogen', 'Ingrid', 'Ira', 'Irene', 'Isaac', 'Ivy', 'Jasper', 'Jean', 'Jerome', 'Joan',
  'Jonas', 'Josie', 'Jude', 'June', 'Kurt', 'Lana', 'Larry', 'Leona', 'Leroy', 'Lila', 'Lionel', 'Lois', 'Lorna',
  'Lucille', 'Luther', 'Lydia', 'Mabel', 'Marcus', 'Margo', 'Marvin', 'Maude', 'Maxine', 'Milo', 'Miriam', 'Monty',
  'Myra', 'Nadia', 'Nell', 'Nestor', 'Nina', 'Noel', 'Nora', 'Oscar', 'Otis', 'Ottilie', 'Pearl', 'Percy', 'Petra',
  'Phoebe', 'Quentin', 'Quinn', 'Raymond', 'Rhoda', 'Rita', 'Roland', 'Rosa', 'Rufus', 'Ruth', 'Sabine', 'Sally',
  'Selma', 'Silas', 'Stella', 'Sterling', 'Sylvia', 'Tabitha', 'Tess', 'Thea', 'Theo', 'Tobias', 'Trudy', 'Ulric',
  'Una', 'Uriah', 'Valerie', 'Vance', 'Vera', 'Victor', 'Viola', 'Wallace', 'Walter', 'Wanda', 'Wendell', 'Wilma',
  'Winston', 'Xavier', 'Yolanda', 'Yusuf', 'Zelda', 'Zora',
] as const;

export const LAST_NAMES = [
  'Abbott', 'Acosta', 'Aldridge', 'Ambrose', 'Ames', 'Archer', 'Ashby', 'Atwood', 'Bader', 'Bailey', 'Bancroft',
  'Barlow', 'Bartlett', 'Beck', 'Bellamy', 'Benton', 'Bishop', 'Blackwood', 'Blake', 'Bolton', 'Booker', 'Bradley',
  'Bramble', 'Brandt', 'Brewer', 'Brook', 'Buckley', 'Burke', 'Byrne', 'Calder', 'Carver', 'Castillo', 'Chandler',
  'Chase', 'Clayton', 'Coleman', 'Conway', 'Corbett', 'Crane', 'Crawford', 'Crosby', 'Dalton', 'Darby', 'Dawes',
  'Delaney', 'Dempsey', 'Dixon', 'Donahue', 'Doyle', 'Drake', 'Dunbar', 'Eaton', 'Eckert', 'Ellison', 'Emery',
  'Espinoza', 'Everett', 'Fairbanks', 'Farley', 'Fenwick', 'Finch', 'Fleming', 'Fletcher', 'Ford', 'Foster',
  'Fowler', 'Franco', 'Gallagher', 'Garner', 'Gibbs', 'Goodwin', 'Graves', 'Greer', 'Griffin', 'Hale', 'Halloran',
  'Hammond', 'Harding', 'Harlow', 'Hartman', 'Hastings', 'Hawkins', 'Hayes', 'Hendricks', 'Hobbs', 'Holloway',
  'Horton', 'Howell', 'Hughes', 'Ingram', 'Irwin', 'Jacobs', 'Jarvis', 'Jennings', 'Kane', 'Keller', 'Kemp',
  'Kendall', 'Kirby', 'Knox', 'Lambert', 'Lang', 'Larkin', 'Lawson', 'Leblanc', 'Lindgren', 'Lockwood', 'Lowry',
  'Lucero', 'Lynch', 'Macias', 'Maddox', 'Malone', 'Manning', 'Marsh', 'Mayer', 'McBride', 'Mercer', 'Merritt',
  'Mills', 'Monroe', 'Morrow', 'Mueller', 'Nash', 'Newell', 'Noble', 'Nolan', 'Norris', 'Oakley', 'Ochoa', 'Olsen',
  'Osborne', 'Pace', 'Padilla', 'Parrish', 'Patton', 'Peck', 'Pennington', 'Perkins', 'Pierce', 'Porter', 'Pratt',
  'Quigley', 'Quinlan', 'Ramsey', 'Randall', 'Reeves', 'Rhodes', 'Ritter', 'Rivers', 'Rocha', 'Rowe', 'Russo',
  'Salazar', 'Sampson', 'Sawyer', 'Schaefer', 'Sellers', 'Shelton', 'Sherwood', 'Sinclair', 'Slater', 'Snell',
  'Sparks', 'Stafford', 'Stokes', 'Strickland', 'Sutton', 'Talbot', 'Tanner', 'Thorne', 'Tillman', 'Townsend',
  'Trujillo', 'Tucker', 'Underwood', 'Upton', 'Valdez', 'Vance', 'Vaughn', 'Villanueva', 'Wade', 'Waller',
  'Walsh', 'Warner', 'Webb', 'Wheeler', 'Whitaker', 'Wilder', 'Winslow', 'Wolfe', 'Woodward', 'Wyatt', 'Yates',
  'York', 'Zamora', 'Ziegler',
] as const;

export const STREET_NAMES = [
  'Oak', 'Maple', 'Cedar', 'Pine', 'Elm', 'Willow', 'Birch', 'Aspen', 'Hickory', 'Walnut', 'Chestnut', 'Sycamore',
  'Juniper', 'Magnolia', 'Laurel', 'Spruce', 'Cottonwood', 'Mesquite', 'Prairie', 'Meadow', 'Ridge', 'Valley',
  'Canyon', 'River', 'Lake', 'Hill', 'Summit', 'Harbor', 'Bluff', 'Quarry', 'Mill', 'Orchard', 'Rosedale',
  'Fairview', 'Highland', 'Lincoln', 'Jefferson', 'Franklin', 'Madison', 'Washington', 'Jackson', 'Grant',
  'Sherman', 'Union', 'Liberty', 'Church', 'School', 'Railroad', 'Depot', 'County Line', 'Old Mill', 'Sunset',
  'Sunrise', 'Redwood', 'Sandstone', 'Granite', 'Timber', 'Wheatfield', 'Cornell', 'Buffalo', 'Coyote', 'Eagle',
  'Hawk', 'Heron', 'Bison', 'Antelope', '1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th', '10th',
  '12th', '14th', '16th', '21st', '33rd', '47th',
] as const;

export const STREET_TYPES = ['Street', 'Avenue', 'Road', 'Drive', 'Lane', 'Boulevard', 'Way', 'Court', 'Place', 'Trail', 'Highway', 'Parkway'] as const;
export const STREET_DIRECTIONS = ['North', 'South', 'East', 'West'] as const;

export const CITY_PREFIXES = [
  'Ash', 'Bear', 'Bell', 'Birch', 'Black', 'Bloom', 'Blue', 'Bridge', 'Brook', 'Buck', 'Cedar', 'Clear', 'Cliff',
  'Cold', 'Copper', 'Cotton', 'Crystal', 'Deer', 'Dry', 'Eagle', 'Elk', 'Elm', 'Fair', 'Falcon', 'Fern', 'Fox',
  'Glen', 'Gold', 'Granite', 'Green', 'Hazel', 'High', 'Holly', 'Iron', 'Lake', 'Laurel', 'Lime', 'Lin', 'Maple',
  'Marsh', 'Mead', 'Mill', 'Mist', 'Oak', 'Pine', 'Pleasant', 'Plum', 'Quail', 'Raven', 'Red', 'Rich', 'Rock',
  'Rose', 'Salt', 'Sand', 'Shady', 'Silver', 'Spring', 'Stone', 'Stony', 'Summer', 'Sun', 'Sweet', 'Thorn',
  'Timber', 'Walnut', 'Water', 'West', 'White', 'Wild', 'Willow', 'Wind', 'Winter', 'Wolf', 'Wood',
] as const;

export const CITY_SUFFIXES = [
  'ville', 'ton', 'field', 'dale', 'wood', 'ford', 'burg', 'port', 'view', 'mont', 'land', 'brook', 'haven',
  'ridge', 'water', 'stead', 'crest', 'wick', 'more', 'bury',
] as const;

export const CITY_PATTERNS = ['{p}{s}', '{p}{s}', '{p}{s}', '{p}{s}', 'Lake {p}{s}', '{p} Springs', 'Fort {p}{s}', 'Mount {p}', 'New {p}{s}', '{p} City', 'North {p}{s}', 'East {p}{s}', '{p} Falls', '{p} Junction'] as const;

export const COMPANY_FORMS: ReadonlyArray<readonly [string, number]> = [
  ['{L1}, {L2} and {L3}', 35],
  ['{L1}-{L2}', 34],
  ['{F} {L1} and Sons', 10],
  ['{F} {L1} Group', 10],
  ['{L1} Inc', 8],
  ['{L1} LLC', 5],
];

/** Filler vocabulary for review bodies: plain words, nothing borrowed from any lorem generator. */
export const REVIEW_WORDS = [
  'the', 'a', 'it', 'this', 'was', 'is', 'and', 'but', 'very', 'quite', 'really', 'rather', 'not', 'too', 'so',
  'works', 'arrived', 'feels', 'looks', 'seems', 'broke', 'held', 'fits', 'lasted', 'shipped', 'survived', 'hums',
  'sturdy', 'flimsy', 'handy', 'solid', 'shiny', 'heavy', 'light', 'clever', 'odd', 'great', 'fine', 'decent',
  'perfect', 'cheap', 'pricey', 'useful', 'pointless', 'charming', 'noisy', 'quiet', 'smooth', 'rough', 'tiny',
  'box', 'handle', 'lid', 'color', 'finish', 'edge', 'price', 'size', 'weight', 'manual', 'gadget', 'kitchen',
  'garage', 'desk', 'week', 'month', 'morning', 'neighbor', 'dog', 'kids', 'spouse', 'uncle', 'gift', 'purchase',
  'again', 'later', 'today', 'yesterday', 'honestly', 'overall', 'mostly', 'barely', 'almost', 'definitely',
] as const;

/** Vocabulary for the FEEDBACK bodies, which read like tasting notes. */
export const TASTING_WORDS = [
  'nose', 'palate', 'finish', 'notes', 'hints', 'touch', 'whiff', 'layer', 'body', 'texture', 'aftertaste',
  'of', 'with', 'and', 'a', 'the', 'then', 'some', 'lingering', 'gentle', 'bold', 'bright', 'smoky', 'peaty',
  'buttery', 'flaky', 'crisp', 'jammy', 'tart', 'sweet', 'warm', 'spiced', 'oaky', 'nutty', 'zesty', 'rich',
  'honeyed', 'toasted', 'caramel', 'vanilla', 'cinnamon', 'apple', 'cherry', 'rhubarb', 'pecan', 'lemon', 'peach',
  'blueberry', 'pumpkin', 'nutmeg', 'clove', 'brown', 'sugar', 'crust', 'filling', 'lattice', 'cream', 'custard',
  'delivery', 'slice', 'subscription', 'box', 'arrived', 'late', 'early', 'perfectly', 'slightly', 'overly',
  'surprisingly', 'delightfully', 'reminds', 'me', 'childhood', 'grandmother', 'kitchen', 'autumn', 'orchard',
] as const;

export const RATING_LABELS: Record<number, string> = { 1: 'Poor', 2: 'Below Average', 3: 'Average', 4: 'Good', 5: 'Great' };

// Syllables for the extra first names of ACCOUNTS (whose 2,495 rows carry 1,687 distinct first names: more than any
// hand-written list) and word parts for its 473 distinct last names. Combined by ./text.ts in a fixed order.
export const NAME_ONSETS = [
  'B', 'C', 'D', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'R', 'S', 'T', 'V', 'W', 'Y', 'Z', 'Br', 'Cl', 'Dr',
  'El', 'Fl', 'Gr', 'Sh', 'St', 'Th', 'Al', 'An', 'Ar', 'Is', 'Or',
] as const;
export const NAME_NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ie', 'ar', 'el', 'in', 'or', 'am', 'is'] as const;
export const NAME_ENDINGS = [
  'n', 'na', 'ne', 'lia', 'ra', 'ro', 'la', 'lo', 'mon', 'sa', 'ton', 'ly', 'da', 'dor', 'ric', 'wen', 'ssa', 'th',
  'vin', 'ya', 'nia', 'lie', 'rus', 'tte', 'bel',
] as const;
export const SURNAME_ROOTS = [
  'Ash', 'Black', 'Brad', 'Brook', 'Cald', 'Clay', 'Cole', 'Crom', 'Dun', 'East', 'Ell', 'Fair', 'Fen', 'Gold',
  'Green', 'Hal', 'Hart', 'Hay', 'Hol', 'Kings', 'Lang', 'Lock', 'Mar', 'Mid', 'Mor', 'New', 'North', 'Old', 'Pem',
  'Red', 'Ross', 'Rut', 'Shel', 'Stan', 'Stock', 'Thorn', 'Wal', 'Wes', 'Whit', 'Wood',
] as const;
export const SURNAME_ENDINGS = ['son', 'ley', 'worth', 'well', 'ford', 'field', 'man', 'ton', 'by', 'wood', 'ridge', 'more'] as const;
